/** `npm run bench -- [options]`: the options, checked, or a usage error carrying the help. */
import { parseArgs } from "node:util";
import { CATALOG_SIZE_NAMES, isCatalogSizeName, type CatalogSizeName } from "./catalog/catalog-sizes.js";
import { DEFAULT_SEED } from "./catalog/generate-catalog.js";
import { DEFAULT_BENCH_REDIS_URL } from "./worker/bench-redis.js";
import { FLEET_PROJECTS } from "./fleet/fleet-shape.js";
import { LARGE_FLEET_PROJECTS, MIN_LARGE_FLEET_PROJECTS } from "./fleet/large-fleet-shape.js";
import { DEFAULT_CAPACITY_EVENTS } from "./scenarios/capacity-scenario.js";
import { DEFAULT_STARTUP_ROUNDS } from "./scenarios/startup-scenario.js";

export const DEFAULT_LATENCY_MS = 20;
/** add-options costs 100 s of service budget at any size: it runs under one size only. */
export const DEFAULT_ADD_OPTIONS_SIZE: CatalogSizeName = "small";
/** The events target's catalogue; --size picks a quicker one. */
export const DEFAULT_EVENTS_SIZE: CatalogSizeName = "option-heavy";
/** The size the history's target names: a million options, where the history's cost shows. */
export const DEFAULT_HISTORY_SIZE: CatalogSizeName = "option-heavy";
/** What the capacity scenario measures by default: minutes, not the half hour option-heavy takes. */
export const DEFAULT_CAPACITY_SIZES: readonly CatalogSizeName[] = ["small", "medium"];
/** Odd, so that one order (without first, or with first) does not get the last word. */
export const DEFAULT_HISTORY_PAIRS = 3;

export const BENCH_HELP = `Usage: npm run build && npm run bench -- [options]

Runs pim-sync against the PIM and configuration-service simulators with the real upstream
budgets enforced (PIM: 4 requests in flight, 100 req/s, 3 option writes/s; service: 10 req/s)
on seeded generated catalogues, each sync in a child process, and compares each run with the
floor those budgets allow. Prints a table (or JSON) on stdout, progress on stderr, and writes
bench/results/<date>.json (runs of single sizes on one day are merged). The worker scenarios
(add-options, queue overhead) need Redis; their keys live under a prefix of their own, deleted
afterwards. See docs/benchmarks.md.

Options:
  --size NAME       only this size: ${CATALOG_SIZE_NAMES.join(", ")} (repeat or
                    separate with commas for several; default: all, about 7 minutes)
  --latency-ms N    latency the simulators add to every request (default ${DEFAULT_LATENCY_MS})
  --seed N          catalogue generator seed (default ${DEFAULT_SEED})
  --redis-url URL   Redis for the worker scenarios (default ${DEFAULT_BENCH_REDIS_URL})
  --add-options-size NAME
                    the size add-options runs under, only (default ${DEFAULT_ADD_OPTIONS_SIZE}; about
                    100 s: 1,000 additions at the service's 10 req/s); the queue overhead runs
                    once, under the first size of the run
  --json            print the figures as one JSON object on stdout, nothing else
                    (npm prints its own banner on stdout: use \`npm run -s bench -- --json\`)
  --markdown        print the tables as Markdown (for docs/benchmarks.md)
  --no-results      do not write bench/results/<date>.json
  --report FILE     run nothing: print the tables of a saved results file
  --scenario scale  run only the scale scenario (4 worker processes, 16 projects,
                    about a minute): scale_efficiency and slot_utilisation, each
                    process's CPU; --latency-ms, --redis-url and --json apply
  --scenario queue-overhead
                    run only the queue overhead (no-op jobs through pim-sync's worker
                    and bare BullMQ workers, about a minute): queue_overhead_ratio and
                    its measurements; --redis-url and --json apply
  --scenario fleet  run only the fleet (4 worker processes of concurrency 2, 16
                    projects sharing one service account and one PIM connection, the
                    real budgets), the shared limiter's cost and a small job's wait
                    during a large sync, about 1.5 minutes; --latency-ms,
                    --redis-url, --seed and --json apply
  --fleet-projects N
                    projects of the fleet (default ${FLEET_PROJECTS}; fewer to try a change);
                    of the large fleet: default ${LARGE_FLEET_PROJECTS}, at least ${MIN_LARGE_FLEET_PROJECTS}
  --scenario large-fleet
                    run only the large fleet: 200 projects on 8 worker processes of
                    concurrency 2 behind several service accounts and PIM connections,
                    spread schedules, small jobs and PIM events on top, its own
                    redis-server, the bundled CLI (as the image runs it), about 2.5
                    minutes (7 at 1,000 projects); --latency-ms, --seed,
                    --fleet-projects and --json apply
  --scenario events run only the PIM events scenario: a worker process subscribed
                    to events, 1,000 option changes over 50 attributes in 10 bursts;
                    event_to_service_p50_ms/_p95_ms, requests_per_event, end_state_exact.
                    Two full syncs around it: about 5 minutes on the option-heavy catalogue
                    (the default); --size NAME (one) for a quicker one; --latency-ms,
                    --seed, --redis-url, --json and --markdown apply
  --scenario history
                    run only the change history overhead: first syncs of one
                    size (default ${DEFAULT_HISTORY_SIZE}, about 4 minutes a pair on a quiet
                    machine) without and with the history, in --pairs N pairs (default
                    ${DEFAULT_HISTORY_PAIRS}) of alternating order; medians of wall, CPU and
                    peak RSS, history_overhead_ratio; writes
                    bench/results/history-overhead-<date>T<hh-mm>.json; --size (one), --latency-ms,
                    --seed, --json and --no-results apply
  --scenario console
                    run only the operator console's load: an in-process worker with
                    200 projects (a tenth with a held plan), the time GET /admin/console
                    and GET /admin/api/overview take (p50, p95 of 20); --redis-url and
                    --json apply
  --scenario capacity
                    run only the Redis capacity figures: per --size (default
                    ${DEFAULT_CAPACITY_SIZES.join(",")}; repeat or separate with commas) a worker
                    process's first sync, a sync with nothing to write and one relabelling 1% of
                    the options, every key's MEMORY USAGE, projected to 30 days; under the
                    first size --events N (default ${DEFAULT_CAPACITY_EVENTS}) PIM events, each synced
                    alone; redis_bytes_per_project, redis_bytes_per_event, redis_keys_per_event;
                    --cli PATH (another build's dist/src/cli/bin.js), --latency-ms, --seed,
                    --redis-url and --json apply
  --scenario startup
                    run only the start-up figures: --version, jobs list and plan (to its first
                    request) of the built CLI against a bare node -e '', in turn, --rounds N
                    (default ${DEFAULT_STARTUP_ROUNDS}) times, medians; --node PATH (repeat it) measures
                    with that Node binary, the bare start too, one report per Node version
                    (default: the Node running the benchmark); --cli, --redis-url and --json apply
  -h, --help        show this help`;

export class BenchUsageError extends Error {
  override readonly name = "BenchUsageError";
}

export type BenchArgs =
  | { readonly kind: "help" }
  | { readonly kind: "report"; readonly file: string; readonly json: boolean; readonly markdown: boolean }
  | { readonly kind: "scale"; readonly latencyMs: number; readonly redisUrl: string; readonly json: boolean }
  | { readonly kind: "queue-overhead"; readonly redisUrl: string; readonly json: boolean }
  | { readonly kind: "console"; readonly redisUrl: string; readonly json: boolean }
  | {
      readonly kind: "fleet";
      readonly latencyMs: number;
      readonly redisUrl: string;
      readonly seed: number;
      readonly projects: number;
      readonly json: boolean;
    }
  | {
      readonly kind: "large-fleet";
      readonly latencyMs: number;
      readonly seed: number;
      readonly projects: number;
      readonly json: boolean;
    }
  | {
      readonly kind: "events";
      readonly size: CatalogSizeName;
      readonly latencyMs: number;
      readonly seed: number;
      readonly redisUrl: string;
      readonly json: boolean;
      readonly markdown: boolean;
    }
  | {
      readonly kind: "capacity";
      readonly sizes: readonly CatalogSizeName[];
      readonly events: number;
      readonly cliPath: string | null;
      readonly latencyMs: number;
      readonly seed: number;
      readonly redisUrl: string;
      readonly json: boolean;
    }
  | {
      readonly kind: "startup";
      readonly rounds: number;
      readonly cliPath: string | null;
      /** Node binaries to measure with, each on its own (none given: the one running the benchmark). */
      readonly nodePaths: readonly string[];
      readonly redisUrl: string;
      readonly json: boolean;
    }
  | {
      readonly kind: "history";
      readonly size: CatalogSizeName;
      readonly pairs: number;
      readonly latencyMs: number;
      readonly seed: number;
      readonly json: boolean;
      readonly writeResults: boolean;
    }
  | {
      readonly kind: "run";
      readonly sizes: readonly CatalogSizeName[];
      readonly latencyMs: number;
      readonly seed: number;
      readonly redisUrl: string;
      readonly addOptionsSize: CatalogSizeName;
      readonly json: boolean;
      readonly markdown: boolean;
      readonly writeResults: boolean;
    };

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        size: { type: "string", multiple: true },
        "latency-ms": { type: "string" },
        seed: { type: "string" },
        "redis-url": { type: "string" },
        "add-options-size": { type: "string" },
        json: { type: "boolean" },
        markdown: { type: "boolean" },
        "no-results": { type: "boolean" },
        report: { type: "string" },
        scenario: { type: "string" },
        "fleet-projects": { type: "string" },
        pairs: { type: "string" },
        events: { type: "string" },
        rounds: { type: "string" },
        cli: { type: "string" },
        node: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new BenchUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { kind: "help" };
  const json = values.json === true;
  const markdown = values.markdown === true;
  if (json && markdown) throw new BenchUsageError("--json and --markdown exclude each other");
  if (values.report !== undefined) return { kind: "report", file: values.report, json, markdown };
  if (values.scenario !== undefined) {
    if (values.scenario === "queue-overhead") return { kind: "queue-overhead", redisUrl: redisUrlOf(values["redis-url"]), json };
    if (values.scenario === "console") return { kind: "console", redisUrl: redisUrlOf(values["redis-url"]), json };
    if (values.scenario === "fleet") {
      return {
        kind: "fleet",
        latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
        redisUrl: redisUrlOf(values["redis-url"]),
        seed: seedOf(values.seed),
        projects: fleetProjectsOf(values["fleet-projects"]),
        json,
      };
    }
    if (values.scenario === "large-fleet") {
      return {
        kind: "large-fleet",
        latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
        seed: seedOf(values.seed),
        projects: integerIn(values["fleet-projects"], "--fleet-projects", LARGE_FLEET_PROJECTS, MIN_LARGE_FLEET_PROJECTS, 1000),
        json,
      };
    }
    if (values.scenario === "events") {
      return {
        kind: "events",
        size: eventsSizeOf(values.size ?? []),
        latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
        seed: seedOf(values.seed),
        redisUrl: redisUrlOf(values["redis-url"]),
        json,
        markdown,
      };
    }
    if (values.scenario === "history") {
      return {
        kind: "history",
        size: historySizeOf(values.size ?? []),
        pairs: pairsOf(values.pairs),
        latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
        seed: seedOf(values.seed),
        json,
        writeResults: values["no-results"] !== true,
      };
    }
    if (values.scenario === "capacity") {
      return {
        kind: "capacity",
        sizes: capacitySizesOf(values.size ?? []),
        events: integerIn(values.events, "--events", DEFAULT_CAPACITY_EVENTS, 1, 10_000),
        cliPath: values.cli ?? null,
        latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
        seed: seedOf(values.seed),
        redisUrl: redisUrlOf(values["redis-url"]),
        json,
      };
    }
    if (values.scenario === "startup") {
      return {
        kind: "startup",
        rounds: integerIn(values.rounds, "--rounds", DEFAULT_STARTUP_ROUNDS, 1, 200),
        cliPath: values.cli ?? null,
        nodePaths: values.node ?? [],
        redisUrl: redisUrlOf(values["redis-url"]),
        json,
      };
    }
    if (values.scenario !== "scale")
      throw new BenchUsageError(
        `unknown --scenario '${values.scenario}' (scenarios: scale, queue-overhead, fleet, large-fleet, events, history, console, capacity, startup)`,
      );
    return {
      kind: "scale",
      latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
      redisUrl: redisUrlOf(values["redis-url"]),
      json,
    };
  }

  const requested = (values.size ?? [])
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  const unknown = requested.filter((name) => !isCatalogSizeName(name));
  if (unknown.length > 0)
    throw new BenchUsageError(`unknown size ${unknown.map((name) => `'${name}'`).join(", ")} (sizes: ${CATALOG_SIZE_NAMES.join(", ")})`);
  // In the canonical order whatever order they were given in, each once.
  const sizes = requested.length === 0 ? [...CATALOG_SIZE_NAMES] : CATALOG_SIZE_NAMES.filter((name) => requested.includes(name));
  return {
    kind: "run",
    sizes,
    latencyMs: nonNegativeNumber(values["latency-ms"], "--latency-ms", DEFAULT_LATENCY_MS),
    seed: seedOf(values.seed),
    redisUrl: redisUrlOf(values["redis-url"]),
    addOptionsSize: addOptionsSizeOf(values["add-options-size"]),
    json,
    markdown,
    writeResults: values["no-results"] !== true,
  };
}

function nonNegativeNumber(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < 0) throw new BenchUsageError(`${flag} must be a number >= 0, got '${raw}'`);
  return value;
}

function historySizeOf(raw: readonly string[]): CatalogSizeName {
  const names = raw
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (names.length === 0) return DEFAULT_HISTORY_SIZE;
  const [name] = names;
  if (names.length > 1 || name === undefined || !isCatalogSizeName(name))
    throw new BenchUsageError(`--scenario history takes one --size of ${CATALOG_SIZE_NAMES.join(", ")}, got '${names.join(",")}'`);
  return name;
}

function integerIn(raw: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new BenchUsageError(`${flag} must be an integer in [${min}, ${max}], got '${raw}'`);
  return value;
}

function capacitySizesOf(raw: readonly string[]): readonly CatalogSizeName[] {
  const names = raw
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (names.length === 0) return DEFAULT_CAPACITY_SIZES;
  const unknown = names.filter((name) => !isCatalogSizeName(name));
  if (unknown.length > 0)
    throw new BenchUsageError(`unknown size ${unknown.map((name) => `'${name}'`).join(", ")} (sizes: ${CATALOG_SIZE_NAMES.join(", ")})`);
  return CATALOG_SIZE_NAMES.filter((name) => names.includes(name));
}

function pairsOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_HISTORY_PAIRS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 50) throw new BenchUsageError(`--pairs must be an integer in [1, 50], got '${raw}'`);
  return value;
}

function seedOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SEED;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value > 0xffffffff)
    throw new BenchUsageError(`--seed must be an integer in [0, 4294967295], got '${raw}'`);
  return value;
}

function redisUrlOf(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_BENCH_REDIS_URL;
  if (!/^rediss?:\/\/\S+$/.test(raw)) throw new BenchUsageError(`--redis-url must be a redis:// or rediss:// URL, got '${raw}'`);
  return raw;
}

function fleetProjectsOf(raw: string | undefined): number {
  if (raw === undefined) return FLEET_PROJECTS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 64)
    throw new BenchUsageError(`--fleet-projects must be an integer in [1, 64], got '${raw}'`);
  return value;
}

function eventsSizeOf(raw: readonly string[]): CatalogSizeName {
  const names = raw
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (names.length === 0) return DEFAULT_EVENTS_SIZE;
  const [name] = names;
  if (names.length > 1 || name === undefined)
    throw new BenchUsageError(`--scenario events runs one --size, got ${names.map((each) => `'${each}'`).join(", ")}`);
  if (!isCatalogSizeName(name)) throw new BenchUsageError(`unknown size '${name}' (sizes: ${CATALOG_SIZE_NAMES.join(", ")})`);
  return name;
}

function addOptionsSizeOf(raw: string | undefined): CatalogSizeName {
  if (raw === undefined) return DEFAULT_ADD_OPTIONS_SIZE;
  const name = raw.trim();
  if (!isCatalogSizeName(name)) throw new BenchUsageError(`unknown --add-options-size '${raw}' (sizes: ${CATALOG_SIZE_NAMES.join(", ")})`);
  return name;
}
