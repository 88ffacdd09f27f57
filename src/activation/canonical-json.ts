import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every depth and no whitespace, so two values that differ only
 * in key order have the same text. Arrays keep their order (it means something).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    // undefined, functions, symbols: not JSON; callers only pass parsed JSON.
    if (text === undefined) throw new TypeError("canonicalJson takes JSON values only");
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

/** SHA-256 (hex) of the canonical JSON: what the pull and offer states keep. */
export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}
