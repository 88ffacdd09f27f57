import { describe, expect, it } from "vitest";
import { MAX_PAYLOAD_DEPTH } from "../../../../src/upstreams/activation/activation-assumptions.js";
import { parseJsonRecords, RecordFileError } from "../../../../src/features/activation/parse-json-records.js";
import { problemsOf } from "../../../support/problems-of.js";

const recordProblems = (text: string): readonly string[] => problemsOf(() => parseJsonRecords(text, "offers.ndjson"), RecordFileError);

describe("parseJsonRecords", () => {
  it("reads NDJSON, skipping blank lines and CRLF endings", () => {
    expect(parseJsonRecords('{"sku":"a"}\r\n\n  {"sku":"b","n":1}\n', "f")).toEqual([{ sku: "a" }, { sku: "b", n: 1 }]);
  });

  it("reads a JSON array of objects (also spread over lines, with a BOM)", () => {
    expect(parseJsonRecords('\uFEFF [\n {"sku":"a"},\n {"sku":"b"}\n]\n', "f")).toEqual([{ sku: "a" }, { sku: "b" }]);
  });

  it("names every bad NDJSON line by its number", () => {
    expect(recordProblems('{"sku":"a"}\nnot json\n\n[1,2]\n"text"\n{"sku":"ok"}\nnull')).toEqual([
      "line 2: not valid JSON",
      "line 4: expected an object, got an array",
      "line 5: expected an object, got a string",
      "line 7: expected an object, got null",
    ]);
  });

  it("names every bad array element by its index, and a broken array as a whole", () => {
    expect(recordProblems('[{"sku":"a"}, 3, [], {"sku":"b"}]')).toEqual([
      "element [1]: expected an object, got a number",
      "element [2]: expected an object, got an array",
    ]);
    expect(recordProblems('[{"sku":"a"},')[0]).toMatch(/^not valid JSON/);
  });

  it("names a record nested deeper than MAX_PAYLOAD_DEPTH, line or element, and takes one at the limit", () => {
    const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const tooDeep = `nests deeper than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, the most an offer or shipment may (at a.a.a.a.a.a…)`;
    expect(recordProblems(`${nested(MAX_PAYLOAD_DEPTH)}\n${nested(MAX_PAYLOAD_DEPTH + 1)}\n${nested(100_000)}`)).toEqual([
      `line 2: ${tooDeep}`,
      `line 3: ${tooDeep}`,
    ]);
    expect(recordProblems(`[${nested(2)}, ${nested(5_000)}]`)).toEqual([`element [1]: ${tooDeep}`]);
    expect(parseJsonRecords(nested(MAX_PAYLOAD_DEPTH), "f")).toHaveLength(1);
  });

  it("reads an empty file as no records", () => {
    expect(parseJsonRecords("", "f")).toEqual([]);
    expect(parseJsonRecords("[]", "f")).toEqual([]);
  });

  it("puts the file name in the message", () => {
    expect(() => parseJsonRecords("oops", "shipments.json")).toThrow("shipments.json: line 1: not valid JSON");
  });
});
