/**
 * Orders codes by UTF-16 code unit. `localeCompare` would depend on the runtime's ICU data and
 * default locale, and derived output must be identical wherever the worker runs.
 */
export function compareCodes(a: string, b: string): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}
