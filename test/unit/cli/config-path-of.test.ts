import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { configPathOf } from "../../../src/cli/parse-command-args.js";
import { UsageError } from "../../../src/cli/usage-error.js";
import { captureIo } from "../../support/capture-io.js";

describe("configPathOf", () => {
  it("takes --config first, then PIM_SYNC_CONFIG", () => {
    expect(configPathOf("flag.yaml", { PIM_SYNC_CONFIG: "env.yaml" }, "help")).toBe("flag.yaml");
    expect(configPathOf(undefined, { PIM_SYNC_CONFIG: "env.yaml" }, "help")).toBe("env.yaml");
  });

  it("counts an empty variable as unset, and names both ways when neither is given", () => {
    for (const env of [{}, { PIM_SYNC_CONFIG: "" }]) {
      expect(() => configPathOf(undefined, env, "help")).toThrow(
        new UsageError("no configuration file: give --config FILE or set the PIM_SYNC_CONFIG environment variable", "help"),
      );
    }
  });

  it("refuses an empty --config rather than falling back to the variable", () => {
    expect(() => configPathOf("", { PIM_SYNC_CONFIG: "env.yaml" }, "help")).toThrow("--config needs a file path");
  });
});

describe("every command that reads a config says so in its --help", () => {
  const commands = [
    ["sync"],
    ["plan"],
    ["worker"],
    ["add-options"],
    ["enqueue"],
    ["activation"],
    ["events"],
    ["history"],
    ["held"],
    ["jobs"],
  ];

  it.each(commands)("%s --help", async (name) => {
    const io = captureIo();
    expect(await runCli([name, "--help"], io)).toBe(0);
    expect(io.out()).toMatch(/--config FILE\s+[^\n]*\n\s+\(default: the PIM_SYNC_CONFIG environment variable\)/);
  });
});
