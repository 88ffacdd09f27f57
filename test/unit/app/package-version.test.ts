import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { packageVersion } from "../../../src/app/package-version.js";

describe("packageVersion", () => {
  it("is the version of pim-sync's own package.json", () => {
    const own = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(packageVersion()).toBe(own.version);
    expect(packageVersion()).not.toBe("unknown");
  });
});
