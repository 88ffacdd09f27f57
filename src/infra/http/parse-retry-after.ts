/**
 * `Retry-After` is either delay-seconds or an HTTP date. Returns milliseconds to wait, or
 * undefined when the header is absent or unreadable (Akeneo no longer promises to send it).
 */
export function parseRetryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // HTTP dates end in GMT; anything else would go through V8's lenient parser ("-1" is 2001).
  if (!/GMT$/.test(trimmed)) return undefined;
  const dateMs = Date.parse(trimmed);
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, dateMs - nowMs);
}
