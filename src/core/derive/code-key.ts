/**
 * The identity of a PIM code. The PIM treats codes case-insensitively (`Color` and `color` are
 * the same attribute, option or channel), so lookups and duplicate checks go through this key
 * while output keeps the PIM's own spelling.
 */
export function codeKey(code: string): string {
  return code.toLowerCase();
}
