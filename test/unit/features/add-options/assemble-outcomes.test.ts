import { describe, expect, it } from "vitest";
import { assembleOutcomes } from "../../../../src/features/add-options/assemble-outcomes.js";

const requests = [
  { id: "10", project: 67, attribute: "color" },
  { id: "11", project: 67, attribute: "color" },
  { id: "12", project: 67, attribute: "season" },
  { id: "13", project: 67, attribute: "material" },
  { id: "14", project: 67, attribute: "color" },
];

describe("assembleOutcomes", () => {
  const outcomes = assembleOutcomes({
    requests,
    rejected: new Map([["12", ["attribute 'season' is not in allowed_options_for_pim_attribute_addition of project 67"]]]),
    undecided: new Set(["14"]),
    collections: new Map([
      ["10", [{ collection: "color", added: ["teal"], skipped: [] }]],
      ["11", [{ collection: "color", added: [], skipped: ["teal"] }]],
      [
        "13",
        [
          { collection: "material-en_US", added: ["silk"], skipped: [] },
          { collection: "material-fr_FR", added: [], skipped: ["silk"] },
        ],
      ],
    ]),
    missing: new Map([["material", ["material-de_DE"]]]),
  });

  it("names the first request as the run that carried the others out", () => {
    expect([...outcomes.values()].map((o) => o.merged_into)).toEqual([null, "10", "10", "10"]);
  });

  it("tells added from already present, per request, with the attribute's missing collections", () => {
    expect(outcomes.get("10")).toMatchObject({
      status: "added",
      reasons: [],
      collections: [{ collection: "color", added: ["teal"], skipped: [] }],
      missing: [],
    });
    expect(outcomes.get("11")).toMatchObject({
      status: "already_present",
      collections: [{ collection: "color", added: [], skipped: ["teal"] }],
    });
    // Added to one sibling collection is enough to be "added".
    expect(outcomes.get("13")).toMatchObject({ status: "added", missing: ["material-de_DE"] });
  });

  it("reports a rejection with its reasons, and gives an undecided request no outcome", () => {
    expect(outcomes.get("12")).toEqual({
      status: "rejected",
      reasons: ["attribute 'season' is not in allowed_options_for_pim_attribute_addition of project 67"],
      project: 67,
      attribute: "season",
      collections: [],
      missing: [],
      merged_into: "10",
    });
    expect(outcomes.has("14")).toBe(false);
    expect([...outcomes.keys()]).toEqual(["10", "11", "12", "13"]);
  });
});
