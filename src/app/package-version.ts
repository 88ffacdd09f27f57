import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Checked by hand, not with zod: this file is the package's own, and `pim-sync --version` loads
 * nothing else. zod alone doubled that command's start (docs/cli.md, "Start time"). Anything
 * but a pim-sync package.json with a string version is passed over, as a failed parse would be.
 */
function versionOf(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { name, version } = parsed as { readonly name?: unknown; readonly version?: unknown };
  return name === "pim-sync" && typeof version === "string" ? version : null;
}

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
    const version = versionOf(text);
    if (version !== null) return version;
  }
  return "unknown";
}
