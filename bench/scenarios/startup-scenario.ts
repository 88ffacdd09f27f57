/**
 * Issue 31's start-up figures: the bundled CLI's commands (what package.json's `bin` and the
 * image run) against a bare `node -e ''`, in the same run, taken in turn (bare, --version,
 * jobs list, plan, bare, …) so that the machine's load weighs on each alike; medians. `jobs list` runs against the benchmark's Redis (an empty queue
 * under a prefix of its own); `plan` is timed from spawn to its first request arriving at a
 * local HTTP server standing for the PIM (its token request), then killed. Every process, the
 * bare one too, runs on `nodePath` (default: the Node running the benchmark), so that a figure
 * belongs to one Node version; the compile cache (src/cli/enable-compile-cache.ts, Node 22.1+) is
 * left where the CLI puts it, warm after the first round, as on a machine that runs commands.
 * Each round also starts the libraries' floor (bench/startup/libraries-floor-entry.ts): Node
 * loading only the libraries `jobs list` needs, bundled and cached as the CLI is, reported as its
 * ratio to the bare start beside the figures, so that a target can be read against what those
 * libraries alone cost on the Node measured.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { stringify } from "yaml";
import { CLI_BUNDLE } from "../../scripts/cli-bundle-paths.js";
import { buildLibrariesFloor } from "../startup/build-libraries-floor.js";
import { round } from "../report/round.js";
import { openBenchRedis } from "../worker/bench-redis.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";
import { percentile } from "./latency-percentiles.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

/** The CLI as it ships, bundled (dist/bench/scenarios/ → the repository → dist/bin/pim-sync.js). */
export const BUILT_CLI_PATH = fileURLToPath(new URL(`../../../${CLI_BUNDLE}`, import.meta.url));

/** In the main run: once, under its first size (start-up does not depend on the catalogue). */
export async function runStartupOfRunScenario(context: ScenarioContext): Promise<ScenarioResult> {
  if (!context.worker.measureOncePerRun)
    return {
      figures: { startup_version_ratio: null, startup_jobs_list_ratio: null, startup_plan_ratio: null },
      measurements: {},
      note: "start-up: measured under the run's first size only",
    };
  const result = await runStartupScenario({
    cliPath: BUILT_CLI_PATH,
    redisUrl: context.worker.redisUrl,
    rounds: DEFAULT_STARTUP_ROUNDS,
    progress: context.progress,
  });
  return {
    figures: result.figures,
    measurements: {
      startup_ms: {
        ...result.medians_ms,
        libraries_floor_ratio: result.libraries_floor_ratio,
        rounds: result.rounds,
        load_1m: result.load_average_1m.join(" / "),
        node: result.node,
      },
    },
    note: null,
  };
}

export const DEFAULT_STARTUP_ROUNDS = 15;
export const STARTUP_TARGETS = { startup_version_ratio: 2, startup_jobs_list_ratio: 3, startup_plan_ratio: 3 } as const;

export interface StartupResult {
  readonly figures: {
    readonly startup_version_ratio: number;
    readonly startup_jobs_list_ratio: number;
    readonly startup_plan_ratio: number;
  };
  readonly medians_ms: {
    readonly bare: number;
    readonly version: number;
    readonly jobs_list: number;
    readonly plan_first_request: number;
    readonly libraries_floor: number;
  };
  /** The libraries' floor over the bare start: no target, what `jobs list`'s libraries alone cost. */
  readonly libraries_floor_ratio: number;
  readonly rounds: number;
  readonly load_average_1m: readonly number[];
  /** `process.version` of the Node measured. */
  readonly node: string;
}

export async function runStartupScenario(options: {
  readonly cliPath: string;
  readonly nodePath?: string;
  readonly redisUrl: string;
  readonly rounds: number;
  readonly progress: (message: string) => void;
}): Promise<StartupResult> {
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-startup-"));
  const bench = await openBenchRedis(options.redisUrl);
  const firstRequest = new FirstRequestServer();
  try {
    const pimUrl = await firstRequest.listen();
    // YAML, as users write them (a JSON config is read by the same YAML parser).
    const config = join(dir, "config.yaml");
    await writeFile(
      config,
      stringify({
        redis: { url: options.redisUrl, prefix: bench.prefix },
        log_level: "warn",
        projects: [{ id: 67, pim: { url: pimUrl, ...SIM_PIM_CREDENTIALS }, service: { url: pimUrl, token: SIM_SERVICE_TOKEN } }],
      }),
    );
    // plan with its state in files: no Redis (docs/cli.md, "Start time").
    const planConfig = join(dir, "plan-config.yaml");
    await writeFile(
      planConfig,
      stringify({
        state_dir: join(dir, "state"),
        log_level: "warn",
        projects: [{ id: 67, pim: { url: pimUrl, ...SIM_PIM_CREDENTIALS }, service: { url: pimUrl, token: SIM_SERVICE_TOKEN } }],
      }),
    );
    const node = options.nodePath ?? process.execPath;
    const version = await nodeVersionOf(node);
    const librariesFloor = await buildLibrariesFloor();
    const times = {
      bare: [] as number[],
      version: [] as number[],
      jobs_list: [] as number[],
      plan_first_request: [] as number[],
      libraries_floor: [] as number[],
    };
    const loads: number[] = [];
    for (let index = 0; index < options.rounds; index += 1) {
      times.bare.push(await timeExit(node, ["-e", ""]));
      times.version.push(await timeExit(node, [options.cliPath, "--version"]));
      times.jobs_list.push(await timeExit(node, [options.cliPath, "jobs", "list", "--config", config]));
      times.plan_first_request.push(
        await timeFirstRequest(node, [options.cliPath, "plan", "--config", planConfig, "--project", "67"], firstRequest),
      );
      times.libraries_floor.push(await timeExit(node, [librariesFloor]));
      if (index % 5 === 4) {
        loads.push(round(loadavg()[0] ?? 0, 2));
        options.progress(`startup (node ${version}): ${index + 1}/${options.rounds} rounds`);
      }
    }
    const median = (values: readonly number[]): number => percentile(values, 50) ?? Number.NaN;
    const medians = {
      bare: round(median(times.bare), 1),
      version: round(median(times.version), 1),
      jobs_list: round(median(times.jobs_list), 1),
      plan_first_request: round(median(times.plan_first_request), 1),
      libraries_floor: round(median(times.libraries_floor), 1),
    };
    return {
      figures: {
        startup_version_ratio: round(medians.version / medians.bare, 2),
        startup_jobs_list_ratio: round(medians.jobs_list / medians.bare, 2),
        startup_plan_ratio: round(medians.plan_first_request / medians.bare, 2),
      },
      medians_ms: medians,
      libraries_floor_ratio: round(medians.libraries_floor / medians.bare, 2),
      rounds: options.rounds,
      load_average_1m: loads,
      node: version,
    };
  } finally {
    await firstRequest.close();
    await bench.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Spawn to exit, in ms; a non-zero exit fails the scenario (the figure would not be a start). */
async function timeExit(node: string, args: readonly string[]): Promise<number> {
  const startedAt = performance.now();
  const child = spawn(node, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, "close")) as [number | null];
  const elapsed = performance.now() - startedAt;
  if (code !== 0) throw new Error(`startup: node ${args.join(" ")} exited ${code}: ${stderr.slice(0, 500)}`);
  return elapsed;
}

async function timeFirstRequest(node: string, args: readonly string[], server: FirstRequestServer): Promise<number> {
  const arrived = server.next();
  const startedAt = performance.now();
  const child = spawn(node, args, { stdio: ["ignore", "ignore", "ignore"] });
  const exited = once(child, "close");
  const at = await Promise.race([arrived, exited.then(() => Number.NaN)]);
  child.kill("SIGKILL");
  await exited;
  if (Number.isNaN(at)) throw new Error(`startup: node ${args.join(" ")} exited before its first request`);
  return at - startedAt;
}

async function nodeVersionOf(node: string): Promise<string> {
  const child = spawn(node, ["-p", "process.version"], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`startup: ${node} -p process.version exited ${code}`);
  return stdout.trim();
}

/** Answers 503 to everything; tells when the next request arrives. */
class FirstRequestServer {
  private readonly server: Server;
  private waiting: ((at: number) => void) | null = null;

  constructor() {
    this.server = createServer((request, response) => {
      const at = performance.now();
      this.waiting?.(at);
      this.waiting = null;
      request.resume();
      response.writeHead(503, { "content-type": "application/json" }).end("{}");
    });
  }

  async listen(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  next(): Promise<number> {
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close").catch(() => undefined);
  }
}
