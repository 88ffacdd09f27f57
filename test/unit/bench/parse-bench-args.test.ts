import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../../../bench/catalog/generate-catalog.js";
import { BenchUsageError, DEFAULT_LATENCY_MS, parseBenchArgs } from "../../../bench/parse-bench-args.js";

describe("parseBenchArgs", () => {
  it("runs every size at the default latency and seed", () => {
    expect(parseBenchArgs([])).toEqual({
      kind: "run",
      sizes: ["small", "medium", "large", "option-heavy"],
      latencyMs: DEFAULT_LATENCY_MS,
      seed: DEFAULT_SEED,
      json: false,
      markdown: false,
      writeResults: true,
    });
  });

  it("takes sizes repeated or comma-separated, in canonical order, each once", () => {
    const args = parseBenchArgs(["--size", "option-heavy,small", "--size", "small", "--latency-ms", "0", "--seed", "7", "--json", "--no-results"]);
    expect(args).toMatchObject({ kind: "run", sizes: ["small", "option-heavy"], latencyMs: 0, seed: 7, json: true, writeResults: false });
  });

  it("refuses unknown sizes, bad numbers and unknown options", () => {
    expect(() => parseBenchArgs(["--size", "huge"])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(["--latency-ms", "-1"])).toThrow(/--latency-ms/);
    expect(() => parseBenchArgs(["--seed", "1.5"])).toThrow(/--seed/);
    expect(() => parseBenchArgs(["--fast"])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(["--json", "--markdown"])).toThrow(BenchUsageError);
  });

  it("knows help and report", () => {
    expect(parseBenchArgs(["-h"])).toEqual({ kind: "help" });
    expect(parseBenchArgs(["--report", "r.json", "--markdown"])).toEqual({ kind: "report", file: "r.json", json: false, markdown: true });
  });
});
