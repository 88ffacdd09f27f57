import { describe, expect, it } from "vitest";
import { bearerTokenMatches } from "../../../../src/server/auth/bearer-token-matches.js";

describe("bearerTokenMatches", () => {
  const token = "trigger-token-0123456789";
  it("accepts the right token, whatever the scheme's case", () => {
    expect(bearerTokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`bearer ${token}`, token)).toBe(true);
  });
  it.each([undefined, "", "Bearer", `Basic ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, token])("refuses %j", (header) => {
    expect(bearerTokenMatches(header, token)).toBe(false);
  });
});
