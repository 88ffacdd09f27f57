/**
 * Spawns `node dist/bench/sync-child.js` with a job and waits for its one-line JSON result. The
 * wall time is measured here, around the whole process, as an operator running `sync --once`
 * would experience it.
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { syncChildResultSchema, type SyncChildJob, type SyncChildResult } from "../sync-child-protocol.js";

/** Compiled next to this file's folder: dist/bench/scenarios/ → dist/bench/sync-child.js. */
const CHILD_ENTRY = fileURLToPath(new URL("../sync-child.js", import.meta.url));
/** Enough of the child's stderr to explain a failure without keeping a flood of log lines. */
const STDERR_TAIL_CHARS = 8_000;

export interface ChildRun {
  readonly wallMs: number;
  /** Epoch ms on the simulators' clock (performance-based), to place the run among their request logs. */
  readonly spawnedAt: number;
  readonly exitedAt: number;
  readonly result: SyncChildResult;
  readonly logLines: number;
}

export function runSyncChild(job: SyncChildJob): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, [CHILD_ENTRY, JSON.stringify(job)], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderrTail = "";
    let logLines = 0;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: string) => {
      logLines += chunk.split("\n").length - 1;
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const endedAt = performance.now();
      const wallMs = endedAt - startedAt;
      const spawnedAt = performance.timeOrigin + startedAt;
      const exitedAt = performance.timeOrigin + endedAt;
      if (code !== 0) {
        reject(new Error(`sync child exited with ${code ?? signal ?? "?"}:\n${stderrTail}`));
        return;
      }
      try {
        const result = syncChildResultSchema.parse(JSON.parse(stdout.trim()) as unknown);
        resolve({ wallMs, spawnedAt, exitedAt, result, logLines });
      } catch (error) {
        reject(
          new Error(
            `sync child printed no valid result (${error instanceof Error ? error.message : String(error)}):\n${stdout.slice(0, 500)}\n${stderrTail}`,
          ),
        );
      }
    });
  });
}
