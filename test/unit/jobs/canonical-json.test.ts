import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/jobs/canonical-json.js";

describe("canonicalJson", () => {
  it("is the same text for objects whose keys come in another order, at any depth", () => {
    const a = { project: 67, options: [{ name: "teal", label: { "fr-FR": "Sarcelle", "en-US": "Teal" } }], attribute: "color" };
    const b = { attribute: "color", options: [{ label: { "en-US": "Teal", "fr-FR": "Sarcelle" }, name: "teal" }], project: 67 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe(
      '{"attribute":"color","options":[{"label":{"en-US":"Teal","fr-FR":"Sarcelle"},"name":"teal"}],"project":67}',
    );
  });

  it("keeps array order and tells different values apart", () => {
    expect(canonicalJson([{ name: "a" }, { name: "b" }])).not.toBe(canonicalJson([{ name: "b" }, { name: "a" }]));
    expect(canonicalJson({ options: [{ name: "teal" }] })).not.toBe(canonicalJson({ options: [{ name: "mint" }] }));
    expect(canonicalJson({ a: null, b: true, c: "x" })).toBe('{"a":null,"b":true,"c":"x"}');
  });
});
