import { createHash } from "node:crypto";

/** Still to write: a value, or text (a bracket or separator) between values. */
type Pending = { readonly text: string } | { readonly value: unknown; readonly inArray: boolean };

/**
 * JSON with object keys sorted at every depth and no whitespace, so two values that differ only
 * in key order have the same text (and hash). Arrays keep their order: it means something.
 * As JSON.stringify: an object's undefined, function and symbol values are left out, an array's
 * are written `null`. The one copy for idempotency keys (job data) and the Activation states
 * (offers, orders): a change to its text changes every stored hash.
 *
 * Written with a work list rather than recursion, so a value nested however deep (a caller's
 * offer, an API's order) costs memory, never the stack.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  const work: Pending[] = [{ value, inArray: false }];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ("text" in next) {
      parts.push(next.text);
      continue;
    }
    const item = next.value;
    if (item === null || typeof item !== "object") {
      parts.push(scalarText(item, next.inArray));
      continue;
    }
    // Pushed last first, so that they come off the list in writing order.
    const inner: Pending[] = [];
    if (Array.isArray(item)) {
      inner.push({ text: "[" });
      for (let index = 0; index < item.length; index += 1) {
        if (index > 0) inner.push({ text: "," });
        inner.push({ value: item[index] as unknown, inArray: true });
      }
      inner.push({ text: "]" });
    } else {
      const entries = Object.entries(item as Record<string, unknown>)
        .filter(([, member]) => isWritten(member))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      inner.push({ text: "{" });
      entries.forEach(([key, member], index) => {
        inner.push({ text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` });
        inner.push({ value: member, inArray: false });
      });
      inner.push({ text: "}" });
    }
    for (let index = inner.length - 1; index >= 0; index -= 1) work.push(inner[index] as Pending);
  }
  return parts.join("");
}

/** What JSON.stringify leaves out of an object. */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

function scalarText(value: unknown, inArray: boolean): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text !== undefined) return text;
  if (inArray) return "null";
  // Only the whole value gets here (an object leaves such members out): it is not JSON at all.
  throw new TypeError("canonicalJson takes JSON values only");
}

/** SHA-256 (hex) of the canonical JSON: what the pull and offer states and the Idempotency-Keys keep. */
export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}
