import { describe, expect, it } from "vitest";
import { parseRetryAfterMs } from "../../../../src/infra/http/parse-retry-after.js";

const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");

describe("parseRetryAfterMs", () => {
  it("returns undefined without a header", () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  it.each(["", "   "])("returns undefined for a blank header %j", (header) => {
    expect(parseRetryAfterMs(header, now)).toBeUndefined();
  });

  it.each([
    ["0", 0],
    ["1", 1000],
    ["120", 120_000],
    ["  3 ", 3000],
    ["1.5", 1500],
    ["0.0004", 0],
    ["0.0006", 1],
  ])("reads delay-seconds %j as %i ms", (header, expected) => {
    expect(parseRetryAfterMs(header, now)).toBe(expected);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfterMs("Wed, 21 Oct 2015 07:28:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfterMs("Wed, 21 Oct 2015 07:30:00 GMT", now)).toBe(120_000);
  });

  it("reads an HTTP date equal to now as 0", () => {
    expect(parseRetryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT", now)).toBe(0);
  });

  it("reads an HTTP date in the past as 0, never negative", () => {
    expect(parseRetryAfterMs("Wed, 21 Oct 2015 07:00:00 GMT", now)).toBe(0);
  });

  it.each(["soon", "1e3", "12 abc", "Thursday-ish"])("returns undefined for unreadable %j", (header) => {
    expect(parseRetryAfterMs(header, now)).toBeUndefined();
  });

  it("uses the first of repeated headers", () => {
    expect(parseRetryAfterMs(["2", "7"], now)).toBe(2000);
    expect(parseRetryAfterMs(["Wed, 21 Oct 2015 07:28:10 GMT", "1"], now)).toBe(10_000);
  });

  it("returns undefined for an empty list of headers", () => {
    expect(parseRetryAfterMs([], now)).toBeUndefined();
  });

  it.each(["-1", "abc 12"])("returns undefined for %j, which is neither delay-seconds nor an HTTP date", (header) => {
    expect(parseRetryAfterMs(header, now)).toBeUndefined();
  });
});
