/**
 * A path under the API base from raw segments. Codes are `[A-Za-z0-9_]` by the PIM's rules, but
 * they come from data, and one odd code must not turn into another path (`a/b`, `..`, `?`).
 */
export function pimPath(...segments: readonly string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join("/");
}

/** `https://pim.example.com[/prefix]` → `https://pim.example.com[/prefix]/api/rest/v1/`. */
export function pimApiBaseUrl(baseUrl: string): string {
  return new URL("api/rest/v1/", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`).toString();
}
