import { z } from "zod";

/**
 * Splits an NDJSON body (one JSON value per line) for use as a zod transform, so that a broken
 * line surfaces as a response-shape error naming the line, like any other schema mismatch.
 * Blank lines are skipped: the PIM ends the body with a newline, and `\r\n` may come from proxies.
 */
export function parseNdjson(text: string, ctx: z.core.$RefinementCtx<string>): unknown[] {
  const values: unknown[] = [];
  const lines = text.split("\n");
  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    if (line === "") continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      ctx.addIssue({ code: "custom", message: `line ${index + 1} is not JSON`, input: line.slice(0, 80) });
      return z.NEVER;
    }
  }
  return values;
}
