/**
 * The `runSync` of a scenario context: one sync in a child process against the running
 * simulators, and what they saw of it (their counters are cleared first, so they cover exactly
 * this run).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import type { PimSimulator } from "../../sim/pim/pim-simulator.js";
import type { SimulatorControls } from "../../sim/shared/simulator-runtime.js";
import { REAL_BUDGETS } from "../floor/compute-floor.js";
import { runTimeline } from "./request-timeline.js";
import { runSyncChild } from "./run-sync-child.js";
import type { SyncRun, UpstreamCount } from "./scenario.js";

const HEARTBEAT_MS = 10_000;
/**
 * Quiet time before each run: the simulators' one-second windows still hold the previous run's
 * last requests, which would otherwise be charged to the next run (a 429 on its first list page).
 */
const SETTLE_BETWEEN_RUNS_MS = 1_500;

export function createSyncRunner(args: {
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly project: number;
  readonly stateDir: string;
  readonly progress: (message: string) => void;
}): (label: string) => Promise<SyncRun> {
  const { pim, service, progress } = args;
  return async (label) => {
    await sleep(SETTLE_BETWEEN_RUNS_MS);
    pim.clearRequests();
    service.clearRequests();
    const startedAt = performance.now();
    const cpuBefore = process.cpuUsage();
    progress(`${label}…`);
    const heartbeat = setInterval(() => {
      const elapsed = Math.round((performance.now() - startedAt) / 1000);
      progress(`${label}: ${elapsed} s, PIM ${pim.stats().total} requests, service ${service.stats().total} requests`);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const child = await runSyncChild({ pimUrl: pim.url, serviceUrl: service.url, project: args.project, stateDir: args.stateDir });
      const cpu = process.cpuUsage(cpuBefore);
      progress(`${label}: ${(child.wallMs / 1000).toFixed(2)} s, peak RSS ${child.result.maxRssMb.toFixed(1)} MB`);
      return {
        wallMs: child.wallMs,
        child: child.result,
        pim: countUpstream(pim),
        service: countUpstream(service),
        childLogLines: child.logLines,
        timeline: runTimeline({
          spawnedAt: child.spawnedAt,
          exitedAt: child.exitedAt,
          pim: pim.requests,
          service: service.requests,
          pimLimit: REAL_BUDGETS.pimRequestsPerSecond,
          serviceLimit: REAL_BUDGETS.serviceRequestsPerSecond,
        }),
        simulatorsCpuMs: (cpu.user + cpu.system) / 1000,
        loadAverage: loadavg()[0] ?? 0,
      };
    } finally {
      clearInterval(heartbeat);
    }
  };
}

function countUpstream(sim: SimulatorControls): UpstreamCount {
  const stats = sim.stats();
  let writes = 0;
  let rateLimited = 0;
  for (const request of sim.requests) {
    if (request.method === "PATCH") writes += 1;
    if (request.status === 429) rateLimited += 1;
  }
  return { requests: stats.total, writes, rateLimited, maxInFlight: stats.maxInFlight };
}
