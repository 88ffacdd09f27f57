/**
 * One sync in its own process, so that its peak RSS is the sync's alone (the simulators, which
 * hold the whole catalogue, live in the parent). Wired exactly like `pim-sync sync --once`
 * without Redis: createApp with parsed settings, state in a file store under the
 * job's folder, then the one sync path (runReviewedSync). Prints one JSON result on stdout; logs go to stderr.
 */
import { performance } from "node:perf_hooks";
import { createLogger } from "../src/infra/log/create-logger.js";
import { createApp } from "../src/app/create-app.js";
import { settingsSchema } from "../src/settings/settings-schema.js";
import { runReviewedSync } from "../src/features/sync/held/run-reviewed-sync.js";
import { cliOrigin } from "../src/stores/history/run-origin.js";
import type { SyncReport } from "../src/features/sync/sync-report.js";
import { syncChildJobSchema, type SyncChildResult } from "./sync-child-protocol.js";
import { redactorOfSettings } from "../src/infra/secrets/redactor-of-settings.js";
import { boundHeapGrowth } from "../src/infra/memory/bound-heap-growth.js";

async function readJob(): Promise<unknown> {
  const fromArgv = process.argv[2];
  if (fromArgv !== undefined) return JSON.parse(fromArgv) as unknown;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
}

function summarize(report: SyncReport): SyncChildResult["summary"] {
  const written = report.collections.filter((outcome) => outcome.written);
  return {
    collections: report.collections.length,
    written: written.length,
    replaced: written.filter((outcome) => outcome.action === "replace").length,
    updated: written.filter((outcome) => outcome.action === "update").length,
    unchanged: report.collections.filter((outcome) => outcome.action === "none").length,
    missing: report.missing.length,
    unsupported: report.unsupported.length,
    failures: report.failures.length,
    failureSamples: report.failures.slice(0, 5),
    requests: { pim: { ...report.requests.pim }, service: { ...report.requests.service } },
  };
}

const MB = 1024 * 1024;
const SAMPLE_MS = 100;

/** Peaks of the heap and off-heap memory, to tell live data from garbage and buffers in the peak RSS. */
function sampleMemory(): { stop(): SyncChildResult["memory"] } {
  const peak = { heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 };
  const sample = (): void => {
    const usage = process.memoryUsage();
    peak.heapUsedMb = Math.max(peak.heapUsedMb, usage.heapUsed / MB);
    peak.heapTotalMb = Math.max(peak.heapTotalMb, usage.heapTotal / MB);
    peak.externalMb = Math.max(peak.externalMb, usage.external / MB);
    peak.arrayBuffersMb = Math.max(peak.arrayBuffersMb, usage.arrayBuffers / MB);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

async function main(): Promise<void> {
  const job = syncChildJobSchema.parse(await readJob());
  const settings = settingsSchema.parse({
    state_dir: job.stateDir,
    log_level: job.logLevel,
    history: { enabled: job.history },
    projects: [
      {
        id: job.project,
        pim: { url: job.pimUrl, client_id: "sim-client", secret: "sim-secret", username: "sim-user", password: "sim-password" },
        service: { url: job.serviceUrl, token: "sim-service-token" },
      },
    ],
  });
  const project = settings.projects[0];
  if (project === undefined) throw new Error("settings have no project");
  // As loadCommandSettings does for `pim-sync sync --once`.
  boundHeapGrowth(settings.memory.heap_growing_percent);
  const logger = createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings) });
  const app = createApp(settings, { logger });
  const runtime = await app.project(project.id);
  let report: SyncReport;
  const memory = sampleMemory();
  const startedAt = performance.now();
  try {
    report = await runReviewedSync(runtime, settings, logger, {
      origin: cliOrigin("bench"),
      full: false,
      allowMassDelete: false,
      dryRun: false,
    });
  } finally {
    await app.stop();
  }
  const durationMs = performance.now() - startedAt;
  const memoryPeaks = memory.stop();
  const usage = process.resourceUsage();
  const result: SyncChildResult = {
    summary: summarize(report),
    maxRssMb: usage.maxRSS / 1024,
    durationMs,
    memory: memoryPeaks,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
  };
  logger.flush();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`sync child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
