import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash } from "../../../../src/core/json/canonical-json.js";

/**
 * The Activation copy this one replaced, as it was: the offer and order hashes kept in the
 * Activation states were made with it, so the text must not change.
 */
function recursiveCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => recursiveCanonicalJson(item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${recursiveCanonicalJson(item)}`).join(",")}}`;
}

describe("canonicalJson", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    const a = { project: 67, options: [{ name: "teal", label: { "fr-FR": "Sarcelle", "en-US": "Teal" } }], attribute: "color" };
    const b = { attribute: "color", options: [{ label: { "en-US": "Teal", "fr-FR": "Sarcelle" }, name: "teal" }], project: 67 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe(
      '{"attribute":"color","options":[{"label":{"en-US":"Teal","fr-FR":"Sarcelle"},"name":"teal"}],"project":67}',
    );
  });

  it("gives one text for values that differ only in key order, and different texts otherwise", () => {
    expect(canonicalJson({ x: 1, y: "2" })).toBe(canonicalJson({ y: "2", x: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ x: 1 })).not.toBe(canonicalJson({ x: "1" }));
    expect(canonicalJson({ a: null, b: true, c: "x" })).toBe('{"a":null,"b":true,"c":"x"}');
  });

  it("escapes keys and strings as JSON does, and keeps keys such as __proto__", () => {
    const value = JSON.parse('{"__proto__": {"a": 1}, "q\\"k": "line\\nbreak"}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1},"q\\"k":"line\\nbreak"}');
  });

  it("writes what the Activation copy it replaced wrote, for any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => canonicalJson(value) === recursiveCanonicalJson(value)));
    // Integer-like keys are sorted as text too (the jobs' copy let them come first, as objects list them).
    expect(canonicalJson({ b: 1, "10": 2, "9": 3 })).toBe('{"10":2,"9":3,"b":1}');
  });

  it("leaves out an object's undefined members and writes an array's as null, as JSON.stringify does", () => {
    expect(canonicalJson({ b: undefined, a: [1, undefined, () => 1], c: { d: undefined } })).toBe('{"a":[1,null,null],"c":{}}');
    expect(() => canonicalJson(undefined)).toThrow("JSON values only");
  });

  it("takes a value nested far deeper than the stack allows recursion (a work list, not recursion)", () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`) as unknown;
    expect(canonicalJson(deep)).toHaveLength(depth * 6 + 1);
    expect(canonicalJson(JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`))).toHaveLength(depth * 2);
  });

  it("hashes the canonical text (sha256 hex)", () => {
    expect(contentHash({ b: 1, a: 2 })).toBe(contentHash({ a: 2, b: 1 }));
    expect(contentHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });
});
