/**
 * The secrets an Authorization header value carries: the token of `Bearer`/`Token <x>`, and for
 * `Basic` the encoded pair as sent plus the user and password it decodes to.
 */
export function credentialsInAuthorization(value: string | undefined): string[] {
  if (value === undefined) return [];
  const match = /^\s*(\S+)\s+(.+?)\s*$/.exec(value);
  if (!match?.[1] || !match[2]) return [value];
  const [, scheme, credentials] = match;
  if (scheme.toLowerCase() !== "basic") return [credentials];
  const decoded = Buffer.from(credentials, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? [credentials, decoded] : [credentials, decoded.slice(0, colon), decoded.slice(colon + 1)];
}
