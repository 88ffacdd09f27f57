/**
 * `npm run check:image` (CI runs it after `npm test`, see .ci/run): the image, without a Docker
 * engine. It reads the Dockerfile's final stage and builds that stage's file tree in a temporary
 * folder (the same COPYs, the same `npm ci`, the repository's `npm run build` output for the
 * build stage's dist), then starts the worker from it as ENTRYPOINT + CMD would, with the image's
 * ENV, config/compose.yaml "mounted" and .env.example's variables. Against the local Redis
 * (127.0.0.1:6379, a key prefix of its own) and the simulators started from the repository, it
 * checks /healthz (the HEALTHCHECK's path), /readyz, a trigger (`POST /v1/sync` answered
 * `queued`, then the job completed) and that /metrics refuses a request without the metrics
 * token and answers one with it. Then it stops everything, removes its Redis keys and the folder.
 *
 * Keep it in step with the Dockerfile: an instruction or RUN step it does not know stops it, so
 * a change to the Dockerfile's final stage is a change here too (the Dockerfile says so).
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { parse, stringify } from "yaml";
import { z } from "zod";
import { CLI_BUNDLE } from "./cli-bundle-paths.js";

/** The repository: this file runs as dist/scripts/check-image-tree.js. */
const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** The config folder compose mounts (`PIM_SYNC_CONFIG_DIR` in docker-compose.yml) and the file in it the sample uses. */
const CONFIG_MOUNT = "/etc/pim-sync";
const SAMPLE_CONFIG = "config/compose.yaml";
const REDIS_URL = "redis://127.0.0.1:6379";
/** How long each wait may take on a loaded machine before the check gives up (not a timed assertion: a bound on a hang). */
const WAIT_BOUND_MS = 120_000;

const run = promisify(execFile);
const say = (line: string): void => void process.stdout.write(`check-image-tree: ${line}\n`);

interface ImageTree {
  readonly env: Record<string, string>;
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly exposed: number | undefined;
  readonly healthPath: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments left out). */
function instructionsOf(dockerfile: string): { readonly keyword: string; readonly rest: string }[] {
  const joined = dockerfile.replace(/\\\n/g, " ");
  return joined
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^(\S+)\s*(.*)$/.exec(line);
      return { keyword: (match?.[1] ?? "").toUpperCase(), rest: match?.[2] ?? "" };
    });
}

const execForm = z.array(z.string()).min(1);

/**
 * Builds the final stage's tree under `appDir` (the image's /app) and returns how the image
 * starts. Container paths are mapped: /app to `appDir`, the config mount to `mountDir`.
 */
async function buildTree(appDir: string, mountDir: string): Promise<ImageTree> {
  const dockerfile = await readFile(join(REPO, "Dockerfile"), "utf8");
  const all = instructionsOf(dockerfile);
  const lastFrom = all.map((instruction) => instruction.keyword).lastIndexOf("FROM");
  const finalStage = all.slice(lastFrom);
  const toHost = (path: string): string => {
    if (path === "/app" || path.startsWith("/app/")) return join(appDir, path.slice("/app".length));
    if (path === CONFIG_MOUNT || path.startsWith(`${CONFIG_MOUNT}/`)) return join(mountDir, path.slice(CONFIG_MOUNT.length));
    if (path.startsWith("/")) throw new Error(`the Dockerfile names ${path}, outside /app and the config mount: teach check-image-tree.ts`);
    return join(appDir, path);
  };
  const env: Record<string, string> = {};
  let entrypoint: readonly string[] = [];
  let cmd: readonly string[] = [];
  let exposed: number | undefined;
  let healthPath = "";
  for (const { keyword, rest } of finalStage) {
    switch (keyword) {
      case "FROM": {
        const major = /^node:(\d+)/.exec(rest)?.[1];
        if (major !== process.versions.node.split(".")[0])
          say(`note: the image runs node ${major ?? rest}, this check node ${process.versions.node}`);
        break;
      }
      case "WORKDIR":
        if (rest !== "/app") throw new Error(`WORKDIR ${rest}: this check maps /app only`);
        break;
      case "ENV": {
        const match = /^([A-Za-z_][A-Za-z0-9_]*)=(\S+)$/.exec(rest);
        if (!match?.[1] || match[2] === undefined) throw new Error(`ENV ${rest}: only ENV NAME=value is understood`);
        env[match[1]] = match[2].startsWith("/") ? toHost(match[2]) : match[2];
        break;
      }
      case "COPY": {
        const fromBuild = rest.startsWith("--from=build ");
        const parts = rest.replace(/^--from=build /, "").split(/\s+/);
        const destination = parts.pop();
        if (destination === undefined || parts.length === 0 || parts.some((part) => part.startsWith("--")))
          throw new Error(`COPY ${rest}: not understood`);
        for (const source of parts) {
          // The build stage's /app is this repository after `npm run build`.
          const from = fromBuild ? join(REPO, relative("/app", source)) : join(REPO, source);
          const to = destination.endsWith("/") ? join(toHost(destination), source.split("/").at(-1) ?? "") : toHost(destination);
          await mkdir(dirname(to), { recursive: true });
          await cp(from, to, { recursive: true });
        }
        break;
      }
      case "RUN":
        for (const step of rest.split("&&").map((part) => part.trim())) await runStep(step, toHost);
        break;
      case "USER":
        break;
      case "EXPOSE":
        exposed = Number(rest);
        break;
      case "HEALTHCHECK": {
        const match = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"\s]*)/.exec(rest);
        if (!match?.[2] || Number(match[1]) !== exposed)
          throw new Error(`HEALTHCHECK ${rest}: expected a request to 127.0.0.1:<EXPOSE>/<path>`);
        healthPath = match[2];
        break;
      }
      case "ENTRYPOINT":
        entrypoint = execForm.parse(JSON.parse(rest));
        break;
      case "CMD":
        cmd = execForm.parse(JSON.parse(rest));
        break;
      default:
        throw new Error(`Dockerfile instruction ${keyword} is not known to check-image-tree.ts: change the two together`);
    }
  }
  if (entrypoint.length === 0 || healthPath === "") throw new Error("the Dockerfile's final stage has no ENTRYPOINT or HEALTHCHECK");
  return { env, entrypoint: entrypoint.map((arg) => (arg.startsWith("/") ? toHost(arg) : arg)), cmd, exposed, healthPath };
}

async function runStep(step: string, toHost: (path: string) => string): Promise<void> {
  const npmCi = /^npm ci( .*)?$/.exec(step);
  if (npmCi) {
    const flags = (npmCi[1] ?? "").trim().split(/\s+/).filter(Boolean);
    say(`npm ci ${flags.join(" ")} (from this machine's npm cache where it can)`);
    await run("npm", ["ci", ...flags, "--prefer-offline"], { cwd: toHost("/app"), maxBuffer: 16 * 1024 * 1024 });
    return;
  }
  // The cache and /usr/local/bin are this machine's, not an image layer: left alone.
  if (step === "npm cache clean --force" || /^ln -s \S+ \/usr\/local\/bin\/\S+$/.test(step)) return;
  const chmodStep = /^chmod \+x (\S+)$/.exec(step);
  if (chmodStep?.[1]) return chmod(toHost(chmodStep[1]), 0o755);
  throw new Error(`RUN step '${step}' is not known to check-image-tree.ts: change the two together`);
}

/** A child process whose output lines are kept, and waited on by a predicate. */
function startProcess(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      for (const wake of waiters) wake();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    /** The first line (kept or future) that `pick` maps to a value. */
    waitForLine<T>(pick: (line: string) => T | undefined, what: string): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = (): boolean => {
          for (const line of lines) {
            const found = pick(line);
            if (found !== undefined) {
              cleanup();
              resolve(found);
              return true;
            }
          }
          return false;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${what} within ${WAIT_BOUND_MS} ms; output:\n${lines.join("\n")}`));
        }, WAIT_BOUND_MS);
        const onExit = (): void => {
          if (!check()) {
            cleanup();
            reject(new Error(`exited before ${what}; output:\n${lines.join("\n")}`));
          }
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(wake);
          child.off("close", onExit);
        };
        const wake = (): void => void check();
        if (check()) return;
        waiters.add(wake);
        child.once("close", onExit);
      });
    },
  };
}
type Started = ReturnType<typeof startProcess>;

async function stop(proc: Started | undefined, name: string): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill("SIGTERM");
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${name} exited with ${String(code)} after SIGTERM; output:\n${proc.lines.join("\n")}`);
}

/** Polls until `probe` gives a value: a wait on a condition, bounded so that a hang ends. */
async function waitUntil<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
  say(`ok: ${what}`);
}

/** .env.example's entries (comments skipped, one level of single quotes removed). */
async function envExample(): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for (const line of (await readFile(join(REPO, ".env.example"), "utf8")).split("\n")) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) entries.set(match[1], match[2].replace(/^'(.*)'$/, "$1"));
  }
  return entries;
}

const simUrls = (line: string): string | undefined => /^(?:PIM|Configuration-service) simulator:\s+(http:\/\/\S+)/.exec(line)?.[1];

async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), "pim-sync-image-"));
  const appDir = join(folder, "app");
  const mountDir = join(folder, "etc-pim-sync");
  const prefix = `pim-sync-image-check-${randomUUID()}`;
  let sims: Started | undefined;
  let worker: Started | undefined;
  let failure: unknown;
  try {
    await mkdir(appDir, { recursive: true });
    await mkdir(mountDir, { recursive: true });
    const tree = await buildTree(appDir, mountDir);
    say(`tree built in ${folder}: ${[...tree.entrypoint, ...tree.cmd].join(" ")}`);

    // The simulators, from the repository's CLI (wherever their code lives), on ports bound as 0.
    sims = startProcess(
      process.execPath,
      [join(REPO, CLI_BUNDLE), "sim", "--pim-port", "0", "--service-port", "0", "--activation-port", "0"],
      {
        cwd: REPO,
        env: process.env,
      },
    );
    await sims.waitForLine((line) => (line === "Press Ctrl-C to stop." ? true : undefined), "simulators' start");
    const [pimUrl, serviceUrl] = sims.lines.map(simUrls).filter((url): url is string => url !== undefined);
    if (!pimUrl || !serviceUrl) throw new Error(`simulator URLs not printed:\n${sims.lines.join("\n")}`);

    // The sample config as compose mounts it; inside a container it listens on EXPOSE and
    // speaks to Redis with a password, here it shares the machine: any free port, the local
    // Redis (no password) through REDIS_URL.
    const config = z.record(z.string(), z.unknown()).parse(parse(await readFile(join(REPO, SAMPLE_CONFIG), "utf8")));
    const server = z.record(z.string(), z.unknown()).parse(config.server);
    const redisSection = z.record(z.string(), z.unknown()).parse(config.redis);
    if (server.port !== tree.exposed)
      throw new Error(`${SAMPLE_CONFIG}'s server.port ${String(server.port)} is not the image's EXPOSE ${String(tree.exposed)}`);
    delete redisSection.password;
    const configPath = tree.env.PIM_SYNC_CONFIG;
    if (configPath === undefined || !configPath.startsWith(mountDir))
      throw new Error("the image's ENV PIM_SYNC_CONFIG does not name a file under the config mount");
    await writeFile(configPath, stringify({ ...config, redis: redisSection, server: { ...server, host: "127.0.0.1", port: 0 } }));

    // .env.example's values, its blank secrets filled, as compose's env_file passes them on.
    const env: Record<string, string> = {};
    for (const [name, value] of await envExample()) env[name] = value === "" ? randomBytes(18).toString("base64url") : value;
    Object.assign(env, { PIM_URL: pimUrl, SERVICE_URL: serviceUrl, REDIS_URL, REDIS_PREFIX: prefix }, tree.env);
    const [program, ...args] = [...tree.entrypoint, ...tree.cmd];
    if (program !== "node") throw new Error(`ENTRYPOINT starts ${String(program)}, not node`);
    worker = startProcess(process.execPath, args, { cwd: appDir, env: { PATH: process.env.PATH ?? "", HOME: appDir, ...env } });
    const base = await worker.waitForLine((line) => {
      if (!line.startsWith("{")) return undefined;
      const record = z.object({ msg: z.string(), url: z.string().optional() }).safeParse(JSON.parse(line));
      return record.success && record.data.msg === "HTTP server listening" ? record.data.url : undefined;
    }, "'HTTP server listening' log line");
    say(`worker listening on ${String(base)}`);

    const health = await fetch(`${String(base)}${tree.healthPath}`);
    expectThat(health.status === 200, `GET ${tree.healthPath} (the HEALTHCHECK's) answers 200`);
    await waitUntil(async () => ((await fetch(`${String(base)}/readyz`)).status === 200 ? true : undefined), "GET /readyz 200");
    say("ok: GET /readyz answers 200 (Redis reached)");

    const triggerToken = env.TRIGGER_TOKEN ?? "";
    const queued = await fetch(`${String(base)}/v1/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${triggerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ project: 67 }),
    });
    const answer = z.object({ job_id: z.string(), status: z.string() }).parse(await queued.json());
    expectThat(queued.status === 202 && answer.status === "queued", `POST /v1/sync answers 202 queued (job ${answer.job_id})`);
    const state = await waitUntil(async () => {
      const job = z
        .object({ state: z.string() })
        .parse(
          await (await fetch(`${String(base)}/v1/jobs/${answer.job_id}`, { headers: { authorization: `Bearer ${triggerToken}` } })).json(),
        );
      return job.state === "completed" || job.state === "failed" ? job.state : undefined;
    }, "the queued sync to end");
    expectThat(state === "completed", "the queued sync completed against the simulators");

    const refused = await fetch(`${String(base)}/metrics`);
    expectThat(refused.status === 401, "GET /metrics without the metrics token answers 401");
    const metrics = await fetch(`${String(base)}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN ?? ""}` } });
    const body = await metrics.text();
    expectThat(
      metrics.status === 200 && body.includes("pim_sync_"),
      "GET /metrics with the metrics token answers 200 with pim_sync_ metrics",
    );

    await stop(worker, "the worker");
    say("ok: the worker stopped on SIGTERM with exit 0");
  } catch (error) {
    failure = error;
  }
  const failures = await cleanUp([worker, sims], prefix, folder);
  if (failure !== undefined) throw failure;
  if (failures.length > 0) throw new AggregateError(failures, "cleaning up failed");
}

/** Stops what is still running, removes the check's Redis keys and its folder; what failed is handed back. */
async function cleanUp(processes: readonly (Started | undefined)[], prefix: string, folder: string): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const proc of processes) {
    await stop(proc, "a process of the check").catch((error: unknown) => {
      proc?.child.kill("SIGKILL");
      failures.push(error);
    });
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } catch (error) {
    failures.push(error);
  } finally {
    redis.disconnect();
  }
  await rm(folder, { recursive: true, force: true });
  return failures;
}

main().then(
  () => say("passed"),
  (error: unknown) => {
    process.stderr.write(`check-image-tree: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    if (error instanceof AggregateError) for (const inner of error.errors) process.stderr.write(`  ${String(inner)}\n`);
    process.exitCode = 1;
  },
);
