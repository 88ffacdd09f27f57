/**
 * One `pim-sync worker` process of the scale scenario (the built CLI, as users run it): its job
 * runs read from its JSON log, its CPU time read from /proc (Linux) before it is stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { once } from "node:events";
import type { JobRunSpan } from "./slot-usage.js";

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface WorkerProcess {
  readonly pid: number;
  /** Resolves once the worker logged 'worker started'. */
  readonly started: Promise<void>;
  /** Resolves with the URL of its HTTP server once it logged 'HTTP server listening' (a config with `server`). */
  readonly listening: Promise<string>;
  /** 'job started' to 'job done' of every job this process finished. */
  runs(): JobRunSpan[];
  /** User + system CPU seconds so far; null where /proc is not there. */
  cpuSeconds(): Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** `env` is added to the benchmark's environment (the secrets a config names as `${VAR}`). */
export function spawnWorkerCommand(cliPath: string, configPath: string, env: Readonly<Record<string, string>> = {}): WorkerProcess {
  const child: ChildProcess = spawn(process.execPath, [cliPath, "worker", "--config", configPath], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${cliPath}`);
  const pid = child.pid;
  const starts = new Map<string, number>();
  const spans: JobRunSpan[] = [];
  let buffered = "";
  let onStarted: () => void = () => undefined;
  let onFailed: (error: Error) => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => {
    onStarted = resolve;
    onFailed = reject;
  });
  let onListening: (url: string) => void = () => undefined;
  let onNotListening: (error: Error) => void = () => undefined;
  const listening = new Promise<string>((resolve, reject) => {
    onListening = resolve;
    onNotListening = reject;
  });
  // Awaited only by scenarios that serve HTTP: no unhandled rejection for the others.
  listening.catch(() => undefined);
  const exited = once(child, "close");
  void exited.then(() => {
    onFailed(new Error(`worker process ${pid} exited before it started`));
    onNotListening(new Error(`worker process ${pid} exited before its HTTP server listened`));
  });

  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      let entry: { msg?: unknown; job?: unknown; project?: unknown; time?: unknown; url?: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if (entry.msg === "worker started") onStarted();
      if (entry.msg === "HTTP server listening" && typeof entry.url === "string") onListening(entry.url);
      if (typeof entry.job !== "string" || typeof entry.time !== "number") continue;
      // Job ids are numbered per queue: the project tells two projects' job "1" apart.
      const key = `${String(entry.project)}/${entry.job}`;
      if (entry.msg === "job started") starts.set(key, entry.time);
      if (entry.msg === "job done") {
        const start = starts.get(key);
        if (start !== undefined) spans.push({ start, end: entry.time });
        starts.delete(key);
      }
    }
  });

  return {
    pid,
    started,
    listening,
    runs: () => [...spans],
    async cpuSeconds() {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8");
        // Fields after the command name (which may hold spaces, inside parentheses).
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ticks = Number(fields[11]) + Number(fields[12]);
        return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : null;
      } catch {
        return null;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
