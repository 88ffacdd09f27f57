import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { parseStrictJson } from "../../../src/settings/parse-strict-json.js";

describe("parseStrictJson", () => {
  it("reads a JSON object as JSON.parse does", () => {
    const text = JSON.stringify({
      projects: [
        { id: 1, pim: { url: "https://pim" } },
        { id: 2, pim: { url: "https://pim" } },
      ],
      log_level: "info",
    });
    expect(parseStrictJson(text)).toEqual({ value: JSON.parse(text) });
  });

  it.each([
    ["at the top", '{"log_level":"debug","log_level":"info"}'],
    ["in a nested object", '{"redis":{"url":"redis://a","prefix":"p","url":"redis://b"}}'],
    ["in an object inside an array", '{"projects":[{"id":1},{"id":2,"pim":{},"id":3}]}'],
    ["written with an escape", '{"log_level":"debug","log_\\u006cevel":"info"}'],
    ["after a value holding brackets, commas and quotes", '{"a":"{,\\"[:","b":[1,{"c":"}"}],"a":2}'],
  ])("leaves a text that repeats a key %s to the YAML parser", (_where, text) => {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(parseStrictJson(text)).toBeUndefined();
  });

  it("reads objects that share key names in different places", () => {
    const text = '{"a":{"id":1,"name":"x"},"b":{"id":1,"name":"x"},"list":[{"id":1},{"id":1}],"id":"{\\"id\\":2}"}';
    expect(parseStrictJson(text)).toEqual({ value: JSON.parse(text) });
  });

  it.each([
    ["YAML", "projects:\n  - id: 1\n"],
    ["broken JSON", '{"projects": [}'],
    ["a JSON array", "[1, 2]"],
    ["an empty file", ""],
  ])("leaves %s to the YAML parser", (_kind, text) => {
    expect(parseStrictJson(text)).toBeUndefined();
  });

  it("gives what the YAML parser gives for any JSON object without a repeated key", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (object, pretty) => {
        const text = JSON.stringify(object, null, pretty ? 2 : undefined);
        const read = parseStrictJson(text);
        expect(read).toBeDefined();
        // -0 is written "0" by JSON.stringify; both parsers then read 0.
        expect(read?.value).toEqual(parseDocument(text).toJS() as unknown);
      }),
    );
  });
});
