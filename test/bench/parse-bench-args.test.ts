import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../../bench/catalog/generate-catalog.js";
import {
  BenchUsageError,
  DEFAULT_ADD_OPTIONS_SIZE,
  DEFAULT_EVENTS_SIZE,
  DEFAULT_HISTORY_PAIRS,
  DEFAULT_HISTORY_SIZE,
  DEFAULT_LATENCY_MS,
  parseBenchArgs,
} from "../../bench/parse-bench-args.js";
import { DEFAULT_BENCH_REDIS_URL } from "../../bench/worker/bench-redis.js";

describe("parseBenchArgs", () => {
  it("runs every size at the default latency and seed", () => {
    expect(parseBenchArgs([])).toEqual({
      kind: "run",
      sizes: ["small", "medium", "large", "option-heavy"],
      latencyMs: DEFAULT_LATENCY_MS,
      seed: DEFAULT_SEED,
      redisUrl: DEFAULT_BENCH_REDIS_URL,
      addOptionsSize: DEFAULT_ADD_OPTIONS_SIZE,
      json: false,
      markdown: false,
      writeResults: true,
    });
  });

  it("takes sizes repeated or comma-separated, in canonical order, each once", () => {
    const args = parseBenchArgs([
      "--size",
      "option-heavy,small",
      "--size",
      "small",
      "--latency-ms",
      "0",
      "--seed",
      "7",
      "--json",
      "--no-results",
    ]);
    expect(args).toMatchObject({ kind: "run", sizes: ["small", "option-heavy"], latencyMs: 0, seed: 7, json: true, writeResults: false });
  });

  it("takes the worker scenarios' Redis and add-options size", () => {
    expect(DEFAULT_ADD_OPTIONS_SIZE).toBe("small");
    expect(DEFAULT_BENCH_REDIS_URL).toBe("redis://127.0.0.1:6379");
    const args = parseBenchArgs(["--redis-url", "redis://localhost:6380/2", "--add-options-size", "medium"]);
    expect(args).toMatchObject({ kind: "run", redisUrl: "redis://localhost:6380/2", addOptionsSize: "medium" });
    expect(() => parseBenchArgs(["--redis-url", "http://localhost"])).toThrow(/--redis-url/);
    expect(() => parseBenchArgs(["--add-options-size", "huge"])).toThrow(/--add-options-size/);
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

  it("runs the scale scenario alone with --scenario scale, and refuses another scenario", () => {
    expect(parseBenchArgs(["--scenario", "scale", "--json", "--latency-ms", "5"])).toEqual({
      kind: "scale",
      latencyMs: 5,
      redisUrl: "redis://127.0.0.1:6379",
      json: true,
    });
    expect(() => parseBenchArgs(["--scenario", "huge"])).toThrow("unknown --scenario 'huge'");
  });

  it("runs the operator console's load alone with --scenario console", () => {
    expect(parseBenchArgs(["--scenario", "console", "--json"])).toEqual({
      kind: "console",
      redisUrl: "redis://127.0.0.1:6379",
      json: true,
    });
  });

  it("runs the queue overhead alone with --scenario queue-overhead", () => {
    expect(parseBenchArgs(["--scenario", "queue-overhead", "--json"])).toEqual({
      kind: "queue-overhead",
      redisUrl: "redis://127.0.0.1:6379",
      json: true,
    });
    expect(parseBenchArgs(["--scenario", "queue-overhead", "--redis-url", "redis://10.0.0.2:6380"])).toEqual({
      kind: "queue-overhead",
      redisUrl: "redis://10.0.0.2:6380",
      json: false,
    });
  });

  it("runs the fleet alone with --scenario fleet, 16 projects unless --fleet-projects says fewer", () => {
    expect(parseBenchArgs(["--scenario", "fleet", "--json"])).toEqual({
      kind: "fleet",
      latencyMs: DEFAULT_LATENCY_MS,
      redisUrl: "redis://127.0.0.1:6379",
      seed: DEFAULT_SEED,
      projects: 16,
      json: true,
    });
    expect(parseBenchArgs(["--scenario", "fleet", "--fleet-projects", "4", "--latency-ms", "5"])).toMatchObject({
      kind: "fleet",
      latencyMs: 5,
      projects: 4,
    });
    expect(() => parseBenchArgs(["--scenario", "fleet", "--fleet-projects", "0"])).toThrow(/--fleet-projects/);
    expect(() => parseBenchArgs(["--scenario", "fleet", "--fleet-projects", "2.5"])).toThrow(/--fleet-projects/);
  });

  it("runs the large fleet alone with --scenario large-fleet, 200 projects unless --fleet-projects says otherwise", () => {
    expect(parseBenchArgs(["--scenario", "large-fleet", "--json"])).toEqual({
      kind: "large-fleet",
      latencyMs: DEFAULT_LATENCY_MS,
      seed: DEFAULT_SEED,
      projects: 200,
      json: true,
    });
    expect(parseBenchArgs(["--scenario", "large-fleet", "--fleet-projects", "40"])).toMatchObject({ kind: "large-fleet", projects: 40 });
    expect(() => parseBenchArgs(["--scenario", "large-fleet", "--fleet-projects", "10"])).toThrow(/--fleet-projects/);
  });

  it("runs the PIM events scenario alone with --scenario events, on one size (option-heavy unless --size)", () => {
    expect(parseBenchArgs(["--scenario", "events"])).toEqual({
      kind: "events",
      size: DEFAULT_EVENTS_SIZE,
      latencyMs: DEFAULT_LATENCY_MS,
      seed: DEFAULT_SEED,
      redisUrl: DEFAULT_BENCH_REDIS_URL,
      json: false,
      markdown: false,
    });
    expect(DEFAULT_EVENTS_SIZE).toBe("option-heavy");
    expect(parseBenchArgs(["--scenario", "events", "--size", "medium", "--markdown", "--seed", "3"])).toMatchObject({
      kind: "events",
      size: "medium",
      seed: 3,
      markdown: true,
    });
    expect(() => parseBenchArgs(["--scenario", "events", "--size", "small,large"])).toThrow("runs one --size");
    expect(() => parseBenchArgs(["--scenario", "events", "--size", "giant"])).toThrow(BenchUsageError);
  });

  it("runs the history overhead alone with --scenario history: one size, some pairs", () => {
    expect(parseBenchArgs(["--scenario", "history"])).toEqual({
      kind: "history",
      size: DEFAULT_HISTORY_SIZE,
      pairs: DEFAULT_HISTORY_PAIRS,
      latencyMs: DEFAULT_LATENCY_MS,
      seed: DEFAULT_SEED,
      json: false,
      writeResults: true,
    });
    expect(DEFAULT_HISTORY_SIZE).toBe("option-heavy");
    expect(parseBenchArgs(["--scenario", "history", "--size", "small", "--pairs", "5", "--json", "--no-results"])).toMatchObject({
      kind: "history",
      size: "small",
      pairs: 5,
      json: true,
      writeResults: false,
    });
    expect(() => parseBenchArgs(["--scenario", "history", "--size", "small,medium"])).toThrow(/one --size/);
    expect(() => parseBenchArgs(["--scenario", "history", "--pairs", "0"])).toThrow(/--pairs/);
  });

  it("runs the capacity figures with --scenario capacity: small and medium unless --size says, 200 events unless --events", () => {
    expect(parseBenchArgs(["--scenario", "capacity", "--json"])).toEqual({
      kind: "capacity",
      sizes: ["small", "medium"],
      events: 200,
      cliPath: null,
      latencyMs: 20,
      seed: 20261122,
      redisUrl: "redis://127.0.0.1:6379",
      json: true,
    });
    expect(
      parseBenchArgs(["--scenario", "capacity", "--size", "option-heavy,small", "--events", "50", "--cli", "/x/bin.js"]),
    ).toMatchObject({
      sizes: ["small", "option-heavy"],
      events: 50,
      cliPath: "/x/bin.js",
    });
    expect(() => parseBenchArgs(["--scenario", "capacity", "--events", "0"])).toThrow("--events must be an integer in [1, 10000]");
    expect(() => parseBenchArgs(["--scenario", "capacity", "--size", "huge"])).toThrow("unknown size 'huge'");
  });

  it("runs the start-up figures with --scenario startup, 15 rounds unless --rounds", () => {
    expect(parseBenchArgs(["--scenario", "startup"])).toEqual({
      kind: "startup",
      rounds: 15,
      cliPath: null,
      nodePaths: [],
      redisUrl: "redis://127.0.0.1:6379",
      json: false,
    });
    expect(parseBenchArgs(["--scenario", "startup", "--rounds", "3", "--json"])).toMatchObject({ rounds: 3, json: true });
    expect(parseBenchArgs(["--scenario", "startup", "--node", "/opt/a/node", "--node", "/opt/b/node"])).toMatchObject({
      nodePaths: ["/opt/a/node", "/opt/b/node"],
    });
    expect(() => parseBenchArgs(["--scenario", "startup", "--rounds", "x"])).toThrow("--rounds must be an integer");
  });
});
