import { describe, expect, it } from "vitest";
import { collectionResponseSchema, upsertListResponseSchema } from "../../../../src/upstreams/pim/pim-schemas.js";
import { NO_STATUS, resultsFromCollectionLines, resultsFromUpsertList } from "../../../../src/upstreams/pim/pim-upsert-result.js";
import { akeneoFixture, akeneoFixtureText } from "./read-akeneo-fixture.js";

const CE = "from-pim-community-dev/";

function sent(...codes: string[]): { code: string; labels: Record<string, string> }[] {
  return codes.map((code) => ({ code, labels: {} }));
}

describe("collection PATCH answers (NDJSON)", () => {
  it("parses the documented answer: HTTP 200 with a failed line in the middle", () => {
    const lines = collectionResponseSchema.parse(akeneoFixtureText("attribute_options_patch_collection_response.ndjson"));
    expect(resultsFromCollectionLines(sent("black", "red", "yellow"), lines)).toEqual([
      { code: "black", status: 201 },
      { code: "red", status: 422, message: 'Property "label" does not exist. Check the API format documentation.' },
      { code: "yellow", status: 204 },
    ]);
  });

  it("parses the CE end-to-end answer", () => {
    const lines = collectionResponseSchema.parse(akeneoFixtureText(`${CE}attribute_options_patch_collection_response_e2e.ndjson`));
    expect(resultsFromCollectionLines(sent("optionA", "optionB", "optionC"), lines).map((result) => result.status)).toEqual([
      204, 204, 201,
    ]);
  });

  it("ties code-less lines (code missing, invalid JSON, line too long) to what was sent by line number", () => {
    const missing = collectionResponseSchema.parse(
      akeneoFixtureText(`${CE}attribute_options_patch_collection_response_code_missing.ndjson`),
    );
    expect(resultsFromCollectionLines(sent("a", "b", "c", "d", "e"), missing)).toEqual(
      ["a", "b", "c", "d", "e"].map((code) => ({ code, status: 422, message: "Code is missing." })),
    );
    const invalid = collectionResponseSchema.parse(
      akeneoFixtureText(`${CE}attribute_options_patch_collection_response_invalid_and_too_long_lines.ndjson`),
    );
    const codes = Array.from({ length: 10 }, (_, index) => `o${index + 1}`);
    const results = resultsFromCollectionLines(sent(...codes), invalid);
    expect(results.map((result) => [result.code, result.status])).toEqual([
      ["o1", 400],
      ["o2", 400],
      ["o3", 400],
      ["o4", 413],
      ["o5", 413],
      ["o6", 413],
      ["o7", 413],
      ["o8", 413],
      ["o9", 413],
      ["o10", 400],
    ]);
    expect(results[3]?.message).toBe("Line is too long.");
  });

  it("puts validation details into the message", () => {
    const lines = collectionResponseSchema.parse(
      akeneoFixtureText(`${CE}attribute_options_patch_collection_response_validation_failed.ndjson`),
    );
    expect(resultsFromCollectionLines(sent("foo,"), lines)).toEqual([
      { code: "foo,", status: 422, message: "Validation failed. | code: Option code may contain only letters, numbers and underscores" },
    ]);
  });

  it("tolerates `_links` on unknown-property lines", () => {
    const lines = collectionResponseSchema.parse(
      akeneoFixtureText(`${CE}attribute_options_patch_collection_response_unknown_property.ndjson`),
    );
    expect(lines).toEqual([
      {
        line: 1,
        code: "foo",
        status_code: 422,
        message: 'Property "attributes" does not exist. Check the expected format on the API documentation.',
      },
    ]);
  });

  it.each(["attributes_patch_collection_response.ndjson", "channels_patch_collection_response.ndjson"])(
    "reads the other collection endpoints' answers (%s) with the same line schema",
    (name) => {
      const lines = collectionResponseSchema.parse(akeneoFixtureText(name));
      expect(lines.map((line) => line.status_code)).toEqual([201, 422, 204]);
    },
  );

  it("reports an item the PIM did not answer as status 0 instead of dropping it", () => {
    const lines = collectionResponseSchema.parse('{"line":1,"code":"a","status_code":201}\n');
    expect(resultsFromCollectionLines(sent("a", "b"), lines)).toEqual([
      { code: "a", status: 201 },
      { code: "b", status: NO_STATUS, message: "the PIM returned no status for this item" },
    ]);
  });

  it("turns a line that is not JSON into a schema error", () => {
    const parsed = collectionResponseSchema.safeParse('{"line":1,"code":"a","status_code":201}\n<html>oops</html>\n');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("line 2 is not JSON");
  });
});

describe("JSON-array upsert answers", () => {
  it("parses the records answer", () => {
    const items = upsertListResponseSchema.parse(akeneoFixture("reference_entity_records_patch_response.json"));
    expect(resultsFromUpsertList(sent("kartell", "ligneroset", "usm"), items)).toEqual([
      { code: "kartell", status: 204 },
      { code: "ligneroset", status: 422, message: "Property 'group' does not exist." },
      { code: "usm", status: 201 },
    ]);
  });

  it("parses the measurement families answer, with its `errors`", () => {
    const items = upsertListResponseSchema.parse(akeneoFixture("measurement_families_patch_response.json"));
    const results = resultsFromUpsertList(sent("Angle", "Force", "Area"), items);
    expect(results.map((result) => result.status)).toEqual([201, 204, 422]);
    expect(results[2]?.message).toContain('standard_unit_code: The standard unit code of the "Angle" measurement family cannot be changed');
  });

  it("matches codes case-insensitively and reports unanswered items", () => {
    const items = upsertListResponseSchema.parse([{ code: "Kartell", status_code: 204 }]);
    expect(resultsFromUpsertList(sent("kartell", "usm"), items)).toEqual([
      { code: "Kartell", status: 204 },
      { code: "usm", status: NO_STATUS, message: "the PIM returned no status for this item" },
    ]);
  });
});
