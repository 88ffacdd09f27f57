import { describe, expect, it } from "vitest";
import { codeKey } from "../../../../src/core/derive/code-key.js";

describe("codeKey", () => {
  it.each([
    ["Color", "color"],
    ["COLOR", "color"],
    ["color", "color"],
    ["en_US", "en_us"],
    ["", ""],
  ])("codeKey(%j) is %j", (code, key) => {
    expect(codeKey(code)).toBe(key);
  });
});
