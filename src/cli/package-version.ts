import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const packageSchema = z.object({ name: z.string(), version: z.string() });

/**
 * The version in pim-sync's package.json: the nearest one above this module named pim-sync
 * (the module runs from src/ under tests and from dist/src/ once built).
 */
export function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), depth = 0; depth < 6; dir = dirname(dir), depth += 1) {
    let text: string;
    try {
      text = readFileSync(join(dir, "package.json"), "utf8");
    } catch {
      continue;
    }
    const parsed = packageSchema.safeParse(JSON.parse(text));
    if (parsed.success && parsed.data.name === "pim-sync") return parsed.data.version;
  }
  return "unknown";
}
