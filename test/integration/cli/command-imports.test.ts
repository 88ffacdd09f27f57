import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect } from "vitest";
import { assertCliBuilt, CLI_BIN, CLI_MODULES_BIN } from "../../support/process-cli.js";
import { test } from "../../support/fixtures.js";
import { writeTestConfig, configInputWithoutUpstreams } from "../../support/process-config.js";

/**
 * Every module URL the built CLI resolves, recorded by a loader hook in a file: by default the
 * CLI as tsc built it, a module a file (which of the sources a command loads), or the bundle.
 * Written synchronously before the hook answers: the hooks run on a thread of their own, whose
 * writes to a piped stderr were lost when a quick command exited first (on a loaded machine).
 */
async function modulesLoadedBy(args: readonly string[], dir: string, cli: string = CLI_MODULES_BIN): Promise<string[]> {
  const hooks = join(dir, "hooks.mjs");
  const record = join(dir, "loaded.txt");
  await writeFile(record, "");
  await writeFile(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, resolved.url + "\\n");
  return resolved;
}
`,
  );
  const register = join(dir, "register.mjs");
  await writeFile(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const child = spawn(process.execPath, ["--import", pathToFileURL(register).href, cli, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(code, stderr).toBe(0);
  return (await readFile(record, "utf8")).split("\n").filter((line) => line !== "");
}

/**
 * Modules of the upstream clients and the features: what a command that calls no upstream has no
 * use for (of sync/, every command loads the two that define its exit codes and a config error).
 */
const UPSTREAM_AND_FEATURES =
  /\/node_modules\/(undici|fastify|@fastify|@bull-board|@opentelemetry)\/|\/dist\/src\/(sim\/|pim\/|config-service\/|event-platform\/|sync\/(?!project-scope-error\.js|sync-report\.js)|activation\/activation-runtime|http\/create-agent)/;

describe("pim-sync --version: what it loads", () => {
  test.beforeEach(() => assertCliBuilt());

  test("reads the version without loading the command table, what it imports, or any library", async ({ tempDir }) => {
    const loaded = await modulesLoadedBy(["--version"], tempDir);

    expect(loaded.some((url) => url.includes("/dist/src/app/package-version.js"))).toBe(true);
    const own = loaded.filter((url) => url.includes("/dist/src/")).map((url) => url.slice(url.indexOf("/dist/src/")));
    expect(own.sort()).toEqual([
      "/dist/src/app/package-version.js",
      "/dist/src/cli/bin.js",
      "/dist/src/cli/enable-compile-cache.js",
      "/dist/src/cli/end-quietly-on-closed-stdout.js",
      "/dist/src/cli/prefer-plain-msgpack.js",
    ]);
    expect(loaded.filter((url) => url.includes("/node_modules/"))).toEqual([]);
  });
});

describe("pim-sync sync: what the command loads", () => {
  let dir: string;
  test.beforeEach(async ({ tempDir }) => {
    assertCliBuilt();
    dir = tempDir;
  });

  test("loads neither Redis, BullMQ, the HTTP server nor the simulators (a file-state --once needs none)", async () => {
    const loaded = await modulesLoadedBy(["sync", "--help"], dir);

    expect(loaded.some((url) => url.includes("/dist/src/cli/commands/sync-command.js"))).toBe(true);
    const unneeded = loaded.filter((url) => /\/node_modules\/(ioredis|bullmq|fastify|@bull-board|cron-parser)\/|\/dist\/sim\//.test(url));
    expect(unneeded).toEqual([]);
  });
});

describe("commands that call no upstream: what they load", () => {
  let dir: string;
  let configPath: string;
  test.beforeEach(async ({ tempDir, redis }) => {
    assertCliBuilt();
    dir = tempDir;
    configPath = await writeTestConfig(dir, { pimUrl: "http://127.0.0.1:9", serviceUrl: "http://127.0.0.1:9", redisPrefix: redis.prefix });
  });

  // The job catalog's handlers and the project runtime are loaded when a job runs or an upstream
  // is called: an operator's `jobs list` should answer without loading either.
  test("jobs list loads BullMQ but no upstream client, no job handler, no HTTP server", async () => {
    const loaded = await modulesLoadedBy(["jobs", "list", "--config", configPath], dir);

    expect(loaded.some((url) => url.includes("/node_modules/bullmq/"))).toBe(true);
    expect(loaded.filter((url) => UPSTREAM_AND_FEATURES.test(url) || url.includes("/dist/src/jobs/handlers/"))).toEqual([]);
  });

  test("history loads neither BullMQ nor an upstream client", async () => {
    const loaded = await modulesLoadedBy(["history", "--config", configPath, "--project", "67"], dir);

    expect(loaded.some((url) => url.includes("/dist/src/stores/history/redis-history-store.js"))).toBe(true);
    expect(loaded.filter((url) => UPSTREAM_AND_FEATURES.test(url) || url.includes("/node_modules/bullmq/"))).toEqual([]);
  });
});

/**
 * The bundle (what `bin` and the image run) keeps the sources' lazy imports lazy: each is a chunk
 * loaded when it runs. What a chunk holds is read from the bundler's comments that open each
 * module in it (`// node_modules/bullmq/…`, `// dist/src/upstreams/pim/…`).
 */
async function bundledModulesLoadedBy(
  args: readonly string[],
  dir: string,
): Promise<{ files: string[]; modules: string[]; external: string[] }> {
  const loaded = await modulesLoadedBy(args, dir, CLI_BIN);
  const files = loaded.filter((url) => url.includes("/dist/bin/"));
  const modules: string[] = [];
  for (const url of files)
    for (const line of (await readFile(fileURLToPath(url), "utf8")).split("\n"))
      if (/^\/\/ (node_modules|dist\/src)\//.test(line)) modules.push(`/${line.slice(3)}`);
  return {
    files: files.map((url) => url.slice(url.indexOf("/dist/bin/"))),
    modules,
    // The libraries left out of the bundle (scripts/bundle-cli.ts), imported from node_modules.
    external: loaded.filter((url) => url.includes("/node_modules/")),
  };
}

describe("the worker: what its start loads beside the listener it is configured with", () => {
  /** The modules loaded by importing `modules` (paths under dist/src/), in a fresh process. */
  async function loadedByImporting(dir: string, modules: readonly string[]): Promise<string[]> {
    const script = join(dir, "import-modules.mjs");
    await writeFile(script, "for (const module of process.argv.slice(2)) await import(module);\n");
    const distSrc = dirname(dirname(CLI_MODULES_BIN));
    return modulesLoadedBy(
      modules.map((module) => pathToFileURL(join(distSrc, module)).href),
      dir,
      script,
    );
  }
  const HTTP_SERVER = /\/node_modules\/(fastify|@fastify|prom-client)\//;
  const DASHBOARD = /\/node_modules\/@bull-board\/|\/dist\/src\/server\/admin\/admin-routes\.js$/;

  test("a worker without a listener loads no HTTP server; one with a listener loads fastify but not the dashboard without admin users", async ({
    tempDir,
  }) => {
    assertCliBuilt();
    const worker = await loadedByImporting(tempDir, ["app/worker-process.js"]);
    expect(worker.some((url) => url.endsWith("/dist/src/jobs/worker/start-worker.js"))).toBe(true);
    expect(worker.filter((url) => HTTP_SERVER.test(url) || DASHBOARD.test(url))).toEqual([]);

    const server = await loadedByImporting(tempDir, ["app/worker-process.js", "app/start-http-server.js"]);
    expect(server.some((url) => HTTP_SERVER.test(url))).toBe(true);
    expect(server.filter((url) => DASHBOARD.test(url))).toEqual([]);
  });
});

describe("the bundled CLI: what a command loads", () => {
  test.beforeEach(() => assertCliBuilt());

  test("--version loads the entry and the version's chunk, no library", async ({ tempDir }) => {
    const { files, modules, external } = await bundledModulesLoadedBy(["--version"], tempDir);

    expect(files[0]).toBe("/dist/bin/pim-sync.js");
    expect(modules.sort()).toEqual([
      "/dist/src/app/package-version.js",
      "/dist/src/cli/bin.js",
      "/dist/src/cli/enable-compile-cache.js",
      "/dist/src/cli/end-quietly-on-closed-stdout.js",
      "/dist/src/cli/prefer-plain-msgpack.js",
    ]);
    expect(external).toEqual([]);
  });

  test("jobs list loads BullMQ's chunk but no upstream client, no job handler, no HTTP server", async ({ tempDir, redis }) => {
    const config = await writeTestConfig(tempDir, configInputWithoutUpstreams(redis.prefix));
    const { modules, external } = await bundledModulesLoadedBy(["jobs", "list", "--config", config], tempDir);

    expect(modules.some((path) => path.startsWith("/node_modules/bullmq/"))).toBe(true);
    // BullMQ's worker side stays in the worker's chunk (scripts/bundle-cli.ts, treeshake).
    expect(
      modules.filter((path) => /\/node_modules\/bullmq\/dist\/esm\/classes\/(worker|sandbox|child-pool|flow-producer)\.js$/.test(path)),
    ).toEqual([]);
    expect(modules.filter((path) => UPSTREAM_AND_FEATURES.test(path) || path.includes("/dist/src/jobs/handlers/"))).toEqual([]);
    expect(external.filter((url) => UPSTREAM_AND_FEATURES.test(url))).toEqual([]);
    // What `jobs show` says of an add-options job is loaded by `show` alone (its schema is built at load).
    expect(modules.filter((path) => /\/add-options\/(describe-)?add-options-outcome\.js$/.test(path))).toEqual([]);
  });

  // The upstream clients import undici's Agent and its request alone (src/infra/http/send-request.ts):
  // its index would bring fetch, WebSocket, the mock agents and the caches into every command that
  // calls an upstream (plan, sync), most of that chunk's start.
  test("holds undici's Agent and request, not its index, fetch, WebSocket, mock agents or caches", async () => {
    const dir = join(dirname(CLI_BIN), "chunks");
    const undiciModules: string[] = [];
    for (const name of await readdir(dir))
      for (const line of (await readFile(join(dir, name), "utf8")).split("\n"))
        if (line.startsWith("// node_modules/undici/")) undiciModules.push(line.slice("// node_modules/undici/".length));

    // (a module imported from one place only is inlined without its comment: agent.js, api-request.js)
    expect(undiciModules).toContain("lib/dispatcher/client.js");
    expect(
      undiciModules.filter((path) =>
        /^index\.js$|^lib\/(mock|cache|web\/(websocket|eventsource|cache)|interceptor)\/|^lib\/web\/fetch\/index\.js$/.test(path),
      ),
    ).toEqual([]);
  });

  // undici's HTTP/2 client reads ten constants of node:http2 as it loads; pim-sync never connects
  // over HTTP/2, so the bundle gives it those and node:http2 on demand (scripts/undici-http2-on-demand.ts).
  test("loading undici's Agent (plan, sync) starts none of Node's HTTP/2 modules", async () => {
    const dir = join(dirname(CLI_BIN), "chunks");
    let agentChunk: string | undefined;
    for (const name of await readdir(dir))
      if ((await readFile(join(dir, name), "utf8")).includes("\n// dist/src/infra/http/create-agent.js\n")) agentChunk = join(dir, name);
    expect(agentChunk).toBeDefined();
    const script = `await import(${JSON.stringify(pathToFileURL(agentChunk ?? "").href)}); console.log(JSON.stringify(process.moduleLoadList));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const loaded = JSON.parse(stdout) as string[];
    expect(loaded).toContain("NativeModule net");
    expect(loaded.filter((name) => name.includes("http2"))).toEqual([]);
  });

  // msgpackr requires its native decoder through CommonJS, which the loader hook above does not
  // see; Node's own module log does (src/cli/prefer-plain-msgpack.ts).
  test("jobs list loads msgpackr without looking for its native decoder, unless the environment asks for it", async ({
    tempDir,
    redis,
    cli,
  }) => {
    const config = await writeTestConfig(tempDir, configInputWithoutUpstreams(redis.prefix));
    const requiresOf = async (env: Record<string, string>): Promise<string> => {
      const list = cli.spawn(["jobs", "list", "--config", config], { env: { NODE_DEBUG: "module", ...env } });
      const status = await list.exited;
      expect(status.code, list.stderr()).toBe(0);
      return list.stderr();
    };

    // The second run shows the log would name it.
    expect(await requiresOf({})).not.toContain("msgpackr-extract");
    expect(await requiresOf({ MSGPACKR_NATIVE_ACCELERATION_DISABLED: "false" })).toContain("msgpackr-extract");
  });
});
