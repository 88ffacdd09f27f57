/**
 * How the libraries are bundled: the CLI's bundle (scripts/bundle-cli.ts) and the start-up
 * benchmark's floor of libraries (bench/startup/build-libraries-floor.ts) take them alike, so
 * that the floor is what the CLI pays for the same libraries.
 */
import type { InputOptions } from "rolldown";

/**
 * Libraries left in node_modules and imported from there at run time, each for a reason:
 * - OpenTelemetry (`@opentelemetry/*`, `@fastify/otel`, `bullmq-otel`): loaded only when tracing
 *   is on, and its instrumentations patch modules as Node loads them;
 * - `@bull-board/*`: serves its dashboard's files from its own folder;
 * - `fastify` and `@fastify/*`: only the worker and the server load them, and bull-board's
 *   fastify adapter brings plugins of its own that must meet the same fastify;
 * - `msgpackr` (BullMQ's): finds its optional native decoder beside itself.
 */
const EXTERNAL = [/^@opentelemetry\//, /^@fastify\//, /^fastify(\/|$)/, /^bullmq-otel(\/|$)/, /^@bull-board\//, /^msgpackr(\/|$)/];

export const LIBRARY_BUNDLING: InputOptions = {
  platform: "node",
  external: EXTERNAL,
  // A package's ES module build where it has one (BullMQ): its CommonJS one costs more to start.
  resolve: { mainFields: ["module", "main"] },
  // BullMQ's modules only define what they export, but its package does not say so: without
  // this, every command that imports a Queue loads its Worker, sandboxes, flows and backends
  // too (a third of its chunk, and child_process, worker_threads and net with them).
  treeshake: { moduleSideEffects: [{ test: /[\\/]node_modules[\\/]bullmq[\\/]dist[\\/]esm[\\/]/, sideEffects: false }] },
  logLevel: "warn",
  onLog(level, log) {
    throw new Error(`bundle: ${level}: ${log.message}`);
  },
};
