import { describe, expect, it } from "vitest";
import { describeAddOptionsOutcome } from "../../../../src/features/add-options/describe-add-options-outcome.js";

const outcome = {
  status: "added",
  reasons: [],
  project: 67,
  attribute: "color",
  collections: [{ collection: "color", added: ["teal", "navy"], skipped: ["red"] }],
  missing: [],
  merged_into: "12",
};

describe("describeAddOptionsOutcome", () => {
  it("tells a merged request's outcome and the job that carried it out", () => {
    expect(describeAddOptionsOutcome("67", outcome)).toBe(
      "added: 2 added, 1 already present, 0 collection(s) missing (carried out in the run of 67/12)",
    );
  });
  it("leaves out the batch for a request that ran itself", () => {
    expect(describeAddOptionsOutcome("67", { ...outcome, status: "already_present", collections: [], merged_into: null })).toBe(
      "already present: 0 added, 0 already present, 0 collection(s) missing",
    );
  });
  it("returns null for a result of another shape (an older version's report, a sync)", () => {
    expect(describeAddOptionsOutcome("67", { written: 3 })).toBeNull();
    expect(describeAddOptionsOutcome("67", null)).toBeNull();
  });
});
