import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { jsonText, snakeCaseKeys, writeJsonArray } from "../../../src/cli/json-output.js";

describe("snakeCaseKeys", () => {
  it("turns camelCase keys into snake_case at every depth", () => {
    expect(snakeCaseKeys({ dryRun: false, requests: { pim: { rateLimited: 2 } }, collections: [{ heldBack: null }] })).toEqual({
      dry_run: false,
      requests: { pim: { rate_limited: 2 } },
      collections: [{ held_back: null }],
    });
  });

  it("leaves keys that are data alone: locales, codes, snake_case keys", () => {
    const labels = { "en-US": "Red", en_US: "Red", fr: "Rouge", ABC: "x", delete_all: true };
    expect(snakeCaseKeys({ label: labels })).toEqual({ label: labels });
  });

  it("camel keeps the earlier shape as it is", () => {
    expect(JSON.parse(jsonText({ dryRun: true }, "camel"))).toEqual({ dryRun: true });
    expect(JSON.parse(jsonText({ dryRun: true }))).toEqual({ dry_run: true });
  });
});

describe("writeJsonArray", () => {
  async function written(items: readonly unknown[], style?: "camel"): Promise<string> {
    let text = "";
    const stream = new Writable({
      // A small buffer, so that writing waits for it to drain.
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        setImmediate(done);
      },
    });
    async function* each(): AsyncGenerator<unknown> {
      yield* items;
    }
    await writeJsonArray(stream, each(), style);
    return text;
  }

  it("prints what jsonText prints of the whole array, item by item", async () => {
    const items = [{ labelsBefore: { "en-US": "Red\nline" }, option: "red" }, { nested: [1, { a: [] }], empty: {} }, "text", 3];
    expect(await written(items)).toBe(`${jsonText(items)}\n`);
    expect(await written(items, "camel")).toBe(`${jsonText(items, "camel")}\n`);
  });

  it("prints [] for no item", async () => {
    expect(await written([])).toBe(`${jsonText([])}\n`);
  });
});
