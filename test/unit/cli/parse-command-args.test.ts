import { describe, expect, it } from "vitest";
import { parseCommandArgs, unknownOption, unknownOptionMessage } from "../../../src/cli/parse-command-args.js";
import { UsageError } from "../../../src/cli/usage-error.js";

const OPTIONS = {
  config: { type: "string", short: "c" },
  limit: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function usageMessageOf(argv: readonly string[]): string {
  try {
    parseCommandArgs(argv, OPTIONS, "HELP");
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).help).toBe("HELP");
    return (error as UsageError).message;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

describe("parseCommandArgs: unknown options", () => {
  it("names a misspelt option and the one it most likely stands for", () => {
    expect(usageMessageOf(["--limt", "5"])).toBe("unknown option '--limt' (did you mean --limit?)");
    expect(usageMessageOf(["--config", "a.yaml", "--jsno"])).toBe("unknown option '--jsno' (did you mean --json?)");
    expect(usageMessageOf(["--limt=5"])).toBe("unknown option '--limt' (did you mean --limit?)");
  });

  it("finds a long option given with one dash", () => {
    expect(usageMessageOf(["-limit", "5"])).toBe("unknown option '-limit' (did you mean --limit?)");
  });

  it("names an option close to none without a guess", () => {
    expect(usageMessageOf(["--verbose"])).toBe("unknown option '--verbose'");
    expect(usageMessageOf(["-x"])).toBe("unknown option '-x'");
  });

  it("keeps parseArgs' own message for other mistakes", () => {
    expect(usageMessageOf(["--json=yes"])).toMatch(/--json/);
  });

  it("still parses a good command line", () => {
    expect(parseCommandArgs(["--limit", "5", "-c", "a.yaml", "--json", "list"], OPTIONS, "HELP")).toMatchObject({
      values: { limit: "5", config: "a.yaml", json: true },
      positionals: ["list"],
    });
  });
});

describe("unknownOption", () => {
  it("skips the values of string options, even ones that look like options", () => {
    expect(unknownOption(["--config", "--limt", "--oops"], OPTIONS)).toBe("--oops");
    expect(unknownOption(["-c", "-z", "-q"], OPTIONS)).toBe("-q");
    expect(unknownOption(["-cfile", "-q"], OPTIONS)).toBe("-q");
  });

  it("finds a bad letter among grouped short flags", () => {
    expect(unknownOption(["-hz"], OPTIONS)).toBe("-z");
  });

  it("reads nothing after --", () => {
    expect(unknownOption(["--", "--limt"], OPTIONS)).toBeUndefined();
  });
});

describe("unknownOptionMessage", () => {
  it("guesses no long option for one letter", () => {
    expect(unknownOptionMessage("-l", ["limit"])).toBe("unknown option '-l'");
  });
});
