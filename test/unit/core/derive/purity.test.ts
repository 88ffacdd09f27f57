import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** src/core/derive/ must stay a pure core: domain types and its own files only. */
const DERIVE_DIR = join(import.meta.dirname, "../../../../src/core/derive");
const IMPORT_SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g;
const ALLOWED = /^(?:\.\.\/domain\/[a-z0-9-]+\.js|\.\/[a-z0-9-]+\.js)$/;

const files = readdirSync(DERIVE_DIR).filter((file) => file.endsWith(".ts"));

describe("src/core/derive purity", () => {
  it("has source files to check", () => {
    expect(files).toContain("index.ts");
  });

  it("recognises every import form it guards against", () => {
    const sample =
      'import a from "node:fs";\nimport type { B } from "zod";\nexport { c } from "../pim/x.js";\nimport "pino";\nconst d = import("undici");';
    expect(importSpecifiers(sample)).toEqual(["node:fs", "zod", "../pim/x.js", "pino", "undici"]);
  });

  it.each(files)("%s imports only ../domain/* and ./*", (file) => {
    const source = readFileSync(join(DERIVE_DIR, file), "utf8");
    const specifiers = importSpecifiers(source);
    for (const specifier of specifiers) expect(specifier).toMatch(ALLOWED);
  });

  it.each(files)("%s uses no clock, randomness or globals with side effects", (file) => {
    const source = readFileSync(join(DERIVE_DIR, file), "utf8");
    expect(source).not.toMatch(/\b(?:Date|Math\.random|performance|process|console|setTimeout|fetch|require)\b/);
  });

  it.each(files)("%s has a kebab-case name", (file) => {
    expect(file).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*\.ts$/);
  });
});

function importSpecifiers(source: string): (string | undefined)[] {
  return [...source.matchAll(IMPORT_SPECIFIER)].map((match) => match[1] ?? match[2] ?? match[3]);
}
