import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestUrl } from "../../../../src/infra/http/http-client.js";
import { chunksWithinUrl } from "../../../../src/upstreams/pim/chunks-within-url.js";
import { PIM_MAX_URL_BYTES } from "../../../../src/upstreams/pim/pim-assumptions.js";
import { attributeSearchUrlBytes } from "../../../../src/upstreams/pim/read-target-structure.js";

const BASE = "https://pim.example.test/api/rest/v1";
const bytesOf = (codes: readonly string[]): number => attributeSearchUrlBytes(BASE, codes);

describe("chunksWithinUrl", () => {
  it("keeps the count limit when the URLs are short", () => {
    const codes = Array.from({ length: 250 }, (_, i) => `a${i}`);
    const chunks = chunksWithinUrl(codes, { maxCount: 100, maxBytes: PIM_MAX_URL_BYTES * 100 }, bytesOf);
    expect(chunks.map((chunk) => chunk.length)).toEqual([100, 100, 50]);
  });

  it("splits 100 codes of 100 characters so every search URL is within the bound, in order, none lost", () => {
    const codes = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, "0")}${"x".repeat(97)}`);
    expect(bytesOf(codes)).toBeGreaterThan(PIM_MAX_URL_BYTES * 5);
    const chunks = chunksWithinUrl(codes, { maxCount: 100, maxBytes: PIM_MAX_URL_BYTES }, bytesOf);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(bytesOf(chunk)).toBeLessThanOrEqual(PIM_MAX_URL_BYTES);
    expect(chunks.flat()).toEqual(codes);
    // Greedy: no chunk could have taken the next one's first code.
    for (let i = 0; i + 1 < chunks.length; i += 1)
      expect(bytesOf([...(chunks[i] ?? []), chunks[i + 1]?.[0] ?? ""])).toBeGreaterThan(PIM_MAX_URL_BYTES);
  });

  it("sends a code whose URL alone is over the bound alone", () => {
    const long = "y".repeat(3000);
    expect(chunksWithinUrl(["a", long, "b"], { maxCount: 100, maxBytes: PIM_MAX_URL_BYTES }, bytesOf)).toEqual([["a"], [long], ["b"]]);
  });

  it("counts bytes of the encoded URL as sent", () => {
    const codes = ["a b", "é"];
    expect(bytesOf(codes)).toBe(
      Buffer.byteLength(
        requestUrl(BASE, "attributes", { search: JSON.stringify({ code: [{ operator: "IN", value: codes }] }), limit: 100 }).href,
      ),
    );
  });

  it("for any codes: order kept, every chunk within both limits unless a lone code", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 100 }), { maxLength: 150 }),
        fc.integer({ min: 300, max: 4000 }),
        (codes, maxBytes) => {
          const chunks = chunksWithinUrl(codes, { maxCount: 100, maxBytes }, bytesOf);
          expect(chunks.flat()).toEqual(codes);
          for (const chunk of chunks) {
            expect(chunk.length).toBeGreaterThan(0);
            expect(chunk.length).toBeLessThanOrEqual(100);
            if (chunk.length > 1) expect(bytesOf(chunk)).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
    );
  });
});
