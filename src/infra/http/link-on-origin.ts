/**
 * Where a paging link may be followed. Upstreams build absolute `next` links from what their
 * request said: behind a TLS-terminating proxy Django REST framework answers `http://…`, and a
 * wrong Host header names another host. Credentials go with every request, so a link is only
 * ever followed on the configured origin: its path and query are kept and its scheme, host and
 * port are replaced by the configured ones (never a downgrade to http, never another host).
 */
export function linkOnOrigin(href: string, baseUrl: string): { readonly url: string; readonly rewritten: boolean } {
  const base = new URL(baseUrl);
  const link = new URL(href, base);
  if (link.origin === base.origin) return { url: link.toString(), rewritten: false };
  const onOrigin = new URL(`${link.pathname}${link.search}`, base.origin);
  return { url: onOrigin.toString(), rewritten: true };
}

/** True when `url` (absolute, or relative to `baseUrl`) stays on the origin of `baseUrl`. */
export function isOnOrigin(url: string, baseUrl: string): boolean {
  const base = new URL(baseUrl);
  return new URL(url, base).origin === base.origin;
}
