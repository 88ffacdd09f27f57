import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "../../../support/process-cli.js";

const run = promisify(execFile);

/**
 * Loads the built CLI in a fresh process, has it load the worker command and the modules a worker's
 * start loads (its whole import graph: fastify, BullMQ, the clients) and prints which modules of the tracing stack were loaded.
 * `@opentelemetry/api` is not counted: prom-client loads that no-op facade whatever we do.
 */
const PROBE = `
import { createRequire } from "node:module";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
const { runCli } = await import(process.argv[1]);
const sink = new Writable({ write(_chunk, _encoding, done) { done(); } });
const code = await runCli(["worker", "--help"], { stdout: sink, stderr: sink, env: JSON.parse(process.argv[2]) });
// The app loads the worker's modules when it starts one (src/app/create-app.ts), its HTTP server's
// when the config has a listener and the admin routes' with admin users: load them as such a start would.
for (const module of ["../app/worker-process.js", "../app/start-http-server.js", "../server/admin/admin-routes.js"])
  await import(new URL(module, pathToFileURL(process.argv[1])).href);
const loaded = Object.keys(createRequire(import.meta.url).cache);
const tracing = loaded.filter((path) => /node_modules[\\\\/](@opentelemetry[\\\\/](?!api[\\\\/])|bullmq-otel[\\\\/]|@fastify[\\\\/]otel[\\\\/])/.test(path));
console.log(JSON.stringify({ code, tracing: tracing.length, fastify: loaded.some((path) => /node_modules[\\\\/]fastify[\\\\/]/.test(path)) }));
`;

async function probe(env: Readonly<Record<string, string>>): Promise<{ code: number; tracing: number; fastify: boolean }> {
  const childEnv: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(childEnv)) if (key.startsWith("OTEL_")) delete childEnv[key];
  delete childEnv.NODE_OPTIONS;
  const { stdout } = await run(
    process.execPath,
    ["--input-type=module", "-e", PROBE, join(REPO_ROOT, "dist", "src", "cli", "main.js"), JSON.stringify(env)],
    { env: childEnv, timeout: 60_000 },
  );
  return JSON.parse(stdout.trim()) as { code: number; tracing: number; fastify: boolean };
}

describe("tracing off costs nothing: without an OTLP endpoint no module of the tracing stack is loaded", () => {
  beforeAll(() => assertCliBuilt());

  it("off: the worker command's modules load (fastify among them) and not one of the SDK, the exporters, the instrumentations or bullmq-otel", async () => {
    expect(await probe({})).toEqual({ code: 0, tracing: 0, fastify: true });
    expect(await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_SDK_DISABLED: "true" })).toEqual({
      code: 0,
      tracing: 0,
      fastify: true,
    });
  });

  it("on: the same probe sees them (so it would see them loaded while off)", async () => {
    const on = await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(on.code).toBe(0);
    expect(on.tracing).toBeGreaterThan(0);
  });
});
