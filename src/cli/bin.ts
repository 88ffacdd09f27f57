#!/usr/bin/env node
import { enableCompileCache } from "./enable-compile-cache.js";
import { endQuietlyOnClosedStdout } from "./end-quietly-on-closed-stdout.js";
import { preferPlainMsgpack } from "./prefer-plain-msgpack.js";

// Before any chunk loads: the compile cache covers only modules loaded after it is on.
enableCompileCache();
// Before BullMQ loads msgpackr, which looks for its native decoder as it loads.
preferPlainMsgpack(process.env);
// Before anything is written: `pim-sync … | head` ends every command with exit 0.
endQuietlyOnClosedStdout(process.stdout, (code) => process.exit(code));

/** Answered here: the version alone loads neither the command table nor what it imports (docs/cli.md, "Start time"). */
const VERSION_FLAGS: ReadonlySet<string> = new Set(["--version", "-V", "version"]);

// The process entry: the first SIGINT/SIGTERM aborts the running command, which then stops
// cleanly within its own bound (a worker: worker.shutdown_timeout_ms). A second one ends the
// process at once, for an operator who will not wait.
const controller = new AbortController();
const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };
const stop = (signal: NodeJS.Signals): void => {
  if (controller.signal.aborted) process.exit(SIGNAL_EXIT_CODES[signal] ?? 1);
  controller.abort(new Error(`interrupted (${signal})`));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

const argv = process.argv.slice(2);
if (argv.length === 1 && VERSION_FLAGS.has(argv[0] ?? "")) {
  const { packageVersion } = await import("../app/package-version.js");
  process.stdout.write(`pim-sync ${packageVersion()}\n`);
  process.exitCode = 0;
} else {
  const { runCli } = await import("./main.js");
  process.exitCode = await runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
  });
}

// Everything is closed by now; should a stray handle keep the process alive (a request that
// ignored its abort), leave anyway.
setTimeout(() => process.exit(), 2_000).unref();
