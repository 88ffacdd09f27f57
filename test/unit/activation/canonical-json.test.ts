import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash } from "../../../src/activation/canonical-json.js";

describe("canonicalJson", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it("gives one text for values that differ only in key order, and different texts otherwise", () => {
    expect(canonicalJson({ x: 1, y: "2" })).toBe(canonicalJson({ y: "2", x: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ x: 1 })).not.toBe(canonicalJson({ x: "1" }));
  });

  it("escapes keys and strings as JSON does, and keeps keys such as __proto__", () => {
    const value = JSON.parse('{"__proto__": {"a": 1}, "q\\"k": "line\\nbreak"}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1},"q\\"k":"line\\nbreak"}');
  });

  it("hashes the canonical text (sha256 hex)", () => {
    expect(contentHash({ b: 1, a: 2 })).toBe(contentHash({ a: 2, b: 1 }));
    expect(contentHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });
});
