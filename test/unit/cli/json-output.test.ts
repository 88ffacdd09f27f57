import { describe, expect, it } from "vitest";
import { jsonText, snakeCaseKeys } from "../../../src/cli/json-output.js";

describe("snakeCaseKeys", () => {
  it("turns camelCase keys into snake_case at every depth", () => {
    expect(snakeCaseKeys({ dryRun: false, requests: { pim: { rateLimited: 2 } }, collections: [{ heldBack: null }] })).toEqual({
      dry_run: false,
      requests: { pim: { rate_limited: 2 } },
      collections: [{ held_back: null }],
    });
  });

  it("leaves keys that are data alone: locales, codes, snake_case keys", () => {
    const labels = { "en-US": "Red", en_US: "Red", fr: "Rouge", ABC: "x", delete_all: true };
    expect(snakeCaseKeys({ label: labels })).toEqual({ label: labels });
  });

  it("camel keeps the earlier shape as it is", () => {
    expect(JSON.parse(jsonText({ dryRun: true }, "camel"))).toEqual({ dryRun: true });
    expect(JSON.parse(jsonText({ dryRun: true }))).toEqual({ dry_run: true });
  });
});
