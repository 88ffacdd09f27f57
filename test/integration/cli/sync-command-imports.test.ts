import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect } from "vitest";
import { assertCliBuilt, CLI_BIN } from "../../support/process-cli.js";
import { test } from "../../support/fixtures.js";

/** Every module URL the built CLI resolves, recorded by a loader hook on stderr. */
async function modulesLoadedBy(args: readonly string[], dir: string): Promise<string[]> {
  const hooks = join(dir, "hooks.mjs");
  await writeFile(
    hooks,
    `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write("LOADED " + resolved.url + "\\n");
  return resolved;
}
`,
  );
  const register = join(dir, "register.mjs");
  await writeFile(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const child = spawn(process.execPath, ["--import", pathToFileURL(register).href, CLI_BIN, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code).toBe(0);
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED "))
    .map((line) => line.slice("LOADED ".length));
}

describe("pim-sync sync: what the command loads", () => {
  let dir: string;
  test.beforeEach(async ({ tempDir }) => {
    assertCliBuilt();
    dir = tempDir;
  });

  test("loads neither Redis, BullMQ, the HTTP server nor the simulators (a file-state --once needs none)", async () => {
    const loaded = await modulesLoadedBy(["sync", "--help"], dir);

    expect(loaded.some((url) => url.includes("/dist/src/cli/commands/sync-command.js"))).toBe(true);
    const unneeded = loaded.filter((url) =>
      /\/node_modules\/(ioredis|bullmq|fastify|@bull-board|cron-parser)\/|\/dist\/src\/sim\//.test(url),
    );
    expect(unneeded).toEqual([]);
  });
});
