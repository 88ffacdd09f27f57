import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/settings/config-error.js";

describe("ConfigError", () => {
  it("lists every problem under the source in its message and keeps them", () => {
    const error = new ConfigError("pim-sync.yaml", ["projects[0].pim.url: must be an http(s) URL", "state_dir: must not be empty"]);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ConfigError");
    expect(error.problems).toEqual(["projects[0].pim.url: must be an http(s) URL", "state_dir: must not be empty"]);
    expect(error.message).toBe(
      "Invalid configuration in pim-sync.yaml:\n  - projects[0].pim.url: must be an http(s) URL\n  - state_dir: must not be empty",
    );
  });

  it("works with a single problem", () => {
    const error = new ConfigError("x.json", ["boom"]);
    expect(error.message).toBe("Invalid configuration in x.json:\n  - boom");
    expect(error.problems).toEqual(["boom"]);
  });
});
