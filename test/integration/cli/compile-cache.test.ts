import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import * as nodeModule from "node:module";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { test } from "../../support/fixtures.js";

/** The children run on this Node (process.execPath): whether it has a compile cache decides what to expect. */
const NODE_HAS_COMPILE_CACHE = typeof Reflect.get(nodeModule, "enableCompileCache") === "function";

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe("the bundled CLI's module compile cache (src/cli/enable-compile-cache.ts)", () => {
  test(`${NODE_HAS_COMPILE_CACHE ? "keeps" : "on this Node keeps no"} compiled code under the temp folder's node-compile-cache (node ${process.version})`, async ({
    tempDir,
    cli,
  }) => {
    const tmp = join(tempDir, "tmp");
    await mkdir(tmp);
    const help = cli.spawn(["jobs", "--help"], { env: { TMPDIR: tmp, NODE_COMPILE_CACHE: "" } });
    const status = await help.exited;

    expect(status.code, help.stderr()).toBe(0);
    expect(help.stdout()).toContain("jobs");
    const cacheDir = join(tmp, "node-compile-cache");
    if (NODE_HAS_COMPILE_CACHE) expect((await filesUnder(cacheDir)).length).toBeGreaterThan(1);
    else expect(existsSync(cacheDir)).toBe(false);
  });

  test("a cache folder that cannot be made leaves the command as it is: same output, exit 0, nothing on stderr", async ({
    tempDir,
    cli,
  }) => {
    // A file where the temp folder should be: no one, root included, can make a folder in it.
    const notADir = join(tempDir, "not-a-folder");
    await writeFile(notADir, "");
    const help = cli.spawn(["jobs", "--help"], { env: { TMPDIR: notADir, NODE_COMPILE_CACHE: "" } });
    const status = await help.exited;

    expect(status.code).toBe(0);
    expect(help.stderr()).toBe("");
    expect(help.stdout()).toContain("jobs");
  });
});
