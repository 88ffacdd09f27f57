import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { simulatorsFromClone } from "../../../src/cli/simulators-from-clone.js";
import { UsageError } from "../../../src/cli/usage-error.js";

/** An installed package: the CLI is there, dist/sim/ is not. */
const packageRoot = mkdtempSync(join(tmpdir(), "pim-sync-package-"));
const importFrom = (path: string) => async () => (await import(pathToFileURL(join(packageRoot, path)).href)) as unknown;

describe("simulatorsFromClone", () => {
  it("turns the missing simulators of an installed package into a usage error that names the way out", async () => {
    const error = await simulatorsFromClone(importFrom("dist/sim/start-simulators.js"))().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/the simulators come with a clone of the repository/);
  });

  it("leaves any other missing module as it is: that is a broken build, not a package without simulators", async () => {
    const error = await simulatorsFromClone(importFrom("dist/src/cli/commands/gone.js"))().catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as NodeJS.ErrnoException).code).toBe("ERR_MODULE_NOT_FOUND");
  });

  it("passes what the loader returns through", async () => {
    await expect(simulatorsFromClone(async () => 42)()).resolves.toBe(42);
  });
});
