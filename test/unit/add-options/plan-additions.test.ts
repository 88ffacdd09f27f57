import { describe, expect, it } from "vitest";
import { planAdditions } from "../../../src/add-options/plan-additions.js";

const teal = { name: "teal", label: { "en-US": "Teal" } };
const red = { name: "Red", label: { "en-US": "Red" } };

describe("planAdditions", () => {
  it("adds everything to a collection with no recorded state", () => {
    expect(planAdditions("color", null, [teal, red])).toEqual({ collection: "color", add: [teal, red], skipped: [] });
  });

  it("skips options already written there, case-insensitively, keeping the requested order", () => {
    const lastWritten = new Map([["red", { "en-US": "Red" }]]);
    expect(planAdditions("color", lastWritten, [teal, red])).toEqual({ collection: "color", add: [teal], skipped: ["Red"] });
  });

  it("adds nothing when every option exists, even with other labels (add-options never updates)", () => {
    const lastWritten = new Map<string, Record<string, string>>([
      ["teal", { "en-US": "Old teal" }],
      ["Red", {}],
    ]);
    expect(planAdditions("color", lastWritten, [teal, red])).toEqual({ collection: "color", add: [], skipped: ["teal", "Red"] });
  });
});
