#!/usr/bin/env node
import { runCli } from "./main.js";

// The process entry: signals abort the running command, which then stops cleanly.
const controller = new AbortController();
const stop = (): void => controller.abort(new Error("interrupted"));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});

// Everything is closed by now; should a stray handle keep the process alive (a request that
// ignored its abort), leave anyway.
setTimeout(() => process.exit(), 2_000).unref();
