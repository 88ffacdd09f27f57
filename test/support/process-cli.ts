import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI_BUNDLE, CLI_ENTRY_BUILT } from "../../scripts/cli-bundle-paths.js";
import { waitFor } from "./wait-for.js";

/** The repository root (two folders above test/support). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The CLI as it ships (package.json's `bin`, the image): the bundle `npm run build` (or `npm test`) makes. */
export const CLI_BIN = join(REPO_ROOT, CLI_BUNDLE);

/** The same CLI as tsc built it, a module a file: for tests of which of its modules a command loads. */
export const CLI_MODULES_BIN = join(REPO_ROOT, CLI_ENTRY_BUILT);

/** `pim-sync sim`'s three servers on ports the system chooses, read back from its output. */
export const SIM_FREE_PORTS: readonly string[] = ["--pim-port", "0", "--service-port", "0", "--activation-port", "0"];

export function assertCliBuilt(): void {
  for (const built of [CLI_BIN, CLI_MODULES_BIN])
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does)`);
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One JSON log line of the child's stderr (pino). */
export type LogLine = Readonly<Record<string, unknown>> & { readonly msg?: string };

export interface CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** The stderr lines that are JSON objects (pino log lines), in order. */
  logs(): LogLine[];
  /** Resolves with the first log line (already written or future) that matches. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs: number, what: string): Promise<LogLine>;
  /** Resolves once the process has exited (never rejects). */
  readonly exited: Promise<ExitStatus>;
  hasExited(): boolean;
  /** Sends a signal to this process (by its pid). */
  signal(signal: NodeJS.Signals): void;
}

/**
 * Spawns the bundled CLI (`node dist/bin/pim-sync.js ...args`) and keeps its output. Every process started here is
 * remembered until it exits, so `killLeftoverProcesses()` (the `cli` fixture's teardown) can end the ones a failed
 * test left behind.
 */
export function spawnCli(
  args: readonly string[],
  options: { readonly env?: Readonly<Record<string, string>>; readonly cwd?: string } = {},
): CliProcess {
  assertCliBuilt();
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  // Whatever the test runner put there is not the CLI's business.
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid === undefined) throw new Error(`could not spawn ${CLI_BIN}`);
  const pid = child.pid;
  let out = "";
  let err = "";
  let exitedFlag = false;
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<ExitStatus>((resolvePromise) => {
    child.once("close", (code, signal) => {
      exitedFlag = true;
      running.delete(handle);
      resolvePromise({ code, signal });
    });
    child.once("error", () => {
      exitedFlag = true;
      running.delete(handle);
      resolvePromise({ code: null, signal: null });
    });
  });

  function logs(): LogLine[] {
    const lines: LogLine[] = [];
    for (const line of err.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // a line still being written
      }
    }
    return lines;
  }

  const handle: CliProcess = {
    child,
    pid,
    stdout: () => out,
    stderr: () => err,
    logs,
    waitForLog: (predicate, timeoutMs, what) =>
      waitFor(
        () => {
          const found = logs().find(predicate);
          if (found) return found;
          if (exitedFlag) throw new Error(`process ${pid} exited; stderr:\n${err.slice(-2000)}`);
          return undefined;
        },
        { timeoutMs, what: `${what} in the log of process ${pid}` },
      ),
    exited,
    hasExited: () => exitedFlag,
    signal(signal) {
      if (!exitedFlag) process.kill(pid, signal);
    },
  };
  running.add(handle);
  return handle;
}

const running = new Set<CliProcess>();

/** How many processes spawnCli started are still running (the fixtures' leak check reads it). */
export function runningCliProcesses(): number {
  return running.size;
}

/** SIGKILLs every process spawnCli started that is still running (by pid), and waits for them. */
export async function killLeftoverProcesses(): Promise<void> {
  const leftovers = [...running];
  for (const proc of leftovers) {
    try {
      proc.signal("SIGKILL");
    } catch {
      // already gone
    }
  }
  await Promise.all(leftovers.map((proc) => proc.exited));
}

/** Waits for the exit, failing with the process's stderr if it takes longer than `timeoutMs`. */
export async function waitForExit(proc: CliProcess, timeoutMs: number): Promise<ExitStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`process ${proc.pid} did not exit within ${timeoutMs} ms; stderr:\n${proc.stderr().slice(-3000)}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([proc.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `pim-sync worker --config <path>`, once it has logged that it started (its queues are open). */
/**
 * The base URL of a worker process' HTTP server once it serves its routes: the listener opens
 * before the worker has started (its trigger and admin routes answer 503 until then), so both
 * lines are waited for.
 */
export async function servingUrlOf(worker: CliProcess, timeoutMs = 15_000): Promise<string> {
  const listening = await worker.waitForLog((line) => line.msg === "HTTP server listening", timeoutMs, "'HTTP server listening'");
  await worker.waitForLog((line) => line.msg === "worker started", timeoutMs, "'worker started'");
  return String(listening.url);
}

export async function startWorkerCli(configPath: string, timeoutMs = 15_000): Promise<CliProcess> {
  const worker = spawnCli(["worker", "--config", configPath]);
  await worker.waitForLog((line) => line.msg === "worker started", timeoutMs, "'worker started'");
  return worker;
}
