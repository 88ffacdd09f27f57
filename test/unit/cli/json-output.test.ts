import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { jsonText, parseJsonKeyStyle, snakeCaseKeys, writeJsonArray } from "../../../src/cli/json-output.js";
import { camelCaseKeys } from "../../../src/core/json/json-key-style.js";

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

describe("camelCaseKeys (job results under --json-keys camel)", () => {
  it("gives back the camelCase keys a result had before it was stored snake_case, leaving data keys alone", () => {
    const stored = { held_back: [{ collection: "color" }], duration_ms: 3, given_up: 1, labels: { en_US: "Red", "en-US": "Red" } };
    expect(camelCaseKeys(stored)).toEqual({
      heldBack: [{ collection: "color" }],
      durationMs: 3,
      givenUp: 1,
      labels: { en_US: "Red", "en-US": "Red" },
    });
    expect(snakeCaseKeys(camelCaseKeys(stored))).toEqual(stored);
  });

  it("leaves the keys it is told were always snake_case, at every depth", () => {
    const stored = { merged_into: null, batch: { requests: 2, left_to_run: 0, service_calls: 3 }, duration_ms: 1 };
    expect(camelCaseKeys(stored, new Set(["merged_into", "left_to_run", "service_calls"]))).toEqual({
      merged_into: null,
      batch: { requests: 2, left_to_run: 0, service_calls: 3 },
      durationMs: 1,
    });
  });
});

describe("parseJsonKeyStyle", () => {
  it("warns of camel's removal, naming the release, on the stream given", () => {
    let warned = "";
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, done) {
        warned += chunk.toString("utf8");
        done();
      },
    });
    expect(parseJsonKeyStyle("camel", "help", stderr)).toBe("camel");
    expect(warned).toBe("deprecated: --json-keys camel is removed in 0.3.0; read the snake_case keys instead\n");
    warned = "";
    expect(parseJsonKeyStyle(undefined, "help", stderr)).toBe("snake");
    expect(warned).toBe("");
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
