import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A test file lives at the path that mirrors what it tests: test/unit/<p>/x.test.ts and
 * test/integration/<p>/x.test.ts beside src/<p>/ (sim/ and scripts/ are mirrored at the root),
 * test/bench/<p>/ beside bench/<p>/. Tests of the repository as a whole live in the cross-cutting
 * folders below (docs/testing.md, "Where a test lives").
 */
const CROSS_CUTTING = ["test/unit/deploy", "test/integration/docs", "test/integration/support"];
const ROOT_MIRRORED = ["sim", "scripts"];
const root = join(import.meta.dirname, "../../..");

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(dir, name));
}

function isFolder(path: string): boolean {
  try {
    return statSync(join(root, path)).isDirectory();
  } catch {
    return false;
  }
}

/** The source folder a test folder mirrors, or undefined for a cross-cutting one. */
export function mirroredSourceOf(testFile: string): string | undefined {
  if (CROSS_CUTTING.some((dir) => testFile.startsWith(`${dir}/`))) return undefined;
  const [, kind, ...rest] = testFile.split("/");
  const folder = rest.slice(0, -1).join("/");
  if (kind === "bench") return folder === "" ? "bench" : `bench/${folder}`;
  return ROOT_MIRRORED.includes(rest[0] ?? "") ? folder : `src/${folder}`;
}

describe("the test tree mirrors the source tree", () => {
  it("has every test file under test/unit, test/integration and test/bench beside a source folder", () => {
    const files = [...filesUnder("test/unit"), ...filesUnder("test/integration"), ...filesUnder("test/bench")];
    const astray = files.filter((file) => {
      const source = mirroredSourceOf(relative(root, join(root, file)));
      return source !== undefined && (source === "src/" || !isFolder(source));
    });
    expect(files.length).toBeGreaterThan(100);
    expect(astray).toEqual([]);
  });

  it("keeps no cross-cutting folder that has gone", () => {
    expect(CROSS_CUTTING.filter((dir) => !isFolder(dir))).toEqual([]);
  });

  it("names the source folder a test mirrors", () => {
    expect(mirroredSourceOf("test/unit/core/derive/naming.test.ts")).toBe("src/core/derive");
    expect(mirroredSourceOf("test/integration/sim/pim/pim-reads.test.ts")).toBe("sim/pim");
    expect(mirroredSourceOf("test/bench/catalog/plan-catalog.test.ts")).toBe("bench/catalog");
    expect(mirroredSourceOf("test/unit/x.test.ts")).toBe("src/");
    expect(mirroredSourceOf(`${CROSS_CUTTING[0]}/any.test.ts`)).toBeUndefined();
  });
});
