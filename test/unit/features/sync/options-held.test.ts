import { describe, expect, it } from "vitest";
import { optionsHeld } from "../../../../src/features/sync/options-held.js";

describe("the options a read source holds", () => {
  it("a list: its options", () => {
    expect(optionsHeld({ kind: "list", options: [{ name: "red", label: {} }] })).toBe(1);
  });

  it("named options: those read and their state entries, not the size of the states they belong to", () => {
    const entry = new Map([["red", { "en-US": "Red" }]]);
    const held = optionsHeld({
      kind: "named",
      named: { present: [{ name: "red", label: { "en-US": "Crimson" } }], gone: ["blue"] },
      lastWritten: new Map([
        ["color", { entries: entry, size: 46_348 }],
        ["color_fr", { entries: entry, size: 46_348 }],
      ]),
    });
    expect(held).toBe(3);
  });
});
