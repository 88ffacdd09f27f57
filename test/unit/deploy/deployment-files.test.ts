/**
 * No Docker engine runs in CI: these checks read the deployment files as a reviewer would, so
 * the mistakes a new user met (Redis at 127.0.0.1 inside the container, `npm ci` at start on a
 * bind mount, no persistence, Redis published without a password, a grace period shorter than
 * the shutdown timeout, `sh -c` as PID 1) cannot come back unnoticed.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadSettings } from "../../../src/settings/load-settings.js";
import { settingsSchema } from "../../../src/settings/settings-schema.js";
import { DEMO_NEXT_STEPS } from "../../../src/cli/commands/demo-command.js";

const root = new URL("../../../", import.meta.url);
const text = (path: string): Promise<string> => readFile(new URL(path, root), "utf8");

const service = z.looseObject({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  ports: z.array(z.string()).optional(),
  volumes: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  networks: z.array(z.string()).optional(),
  profiles: z.array(z.string()).optional(),
  init: z.boolean().optional(),
  restart: z.string().optional(),
  stop_grace_period: z.string().optional(),
  healthcheck: z.looseObject({ test: z.array(z.string()) }).optional(),
  depends_on: z.record(z.string(), z.looseObject({ condition: z.string() })).optional(),
});
const composeSchema = z.strictObject({
  services: z.strictObject({ redis: service, worker: service, simulators: service }),
  networks: z.record(z.string(), z.looseObject({ internal: z.boolean().optional() })),
  volumes: z.record(z.string(), z.unknown()),
});

const seconds = (duration: string): number => {
  const match = /^(\d+)s$/.exec(duration);
  if (!match?.[1]) throw new Error(`unexpected duration '${duration}'`);
  return Number(match[1]);
};

describe("docker-compose.yml", async () => {
  const compose = composeSchema.parse(parse(await text("docker-compose.yml")));
  const { redis, worker, simulators } = compose.services;

  it("Redis keeps its data (AOF on a named volume), never evicts, needs a password and is not published", () => {
    const command = (redis.command ?? []).join(" ");
    expect(command).toMatch(/--appendonly yes/);
    expect(command).toMatch(/--maxmemory-policy noeviction/);
    expect(command).toMatch(/--requirepass/);
    expect(command).toMatch(/^sh -c exec redis-server/);
    expect(redis.volumes).toEqual(["redis-data:/data"]);
    expect(Object.keys(compose.volumes)).toContain("redis-data");
    expect(redis.ports).toBeUndefined();
    expect(redis.networks).toEqual(["internal"]);
    expect(compose.networks.internal?.internal).toBe(true);
    expect(redis.healthcheck).toBeDefined();
  });

  it("the worker runs the built image (no npm at start, no bind mount) under an init, with a grace period longer than its shutdown timeout", () => {
    expect(worker.build).toBe(".");
    expect(worker.volumes).toBeUndefined();
    expect(JSON.stringify(worker)).not.toMatch(/npm (ci|install)/);
    expect(worker.init).toBe(true);
    expect(worker.restart).toBe("unless-stopped");
    const shutdownSeconds = settingsSchema.shape.worker.parse(undefined).shutdown_timeout_ms / 1000;
    expect(seconds(worker.stop_grace_period ?? "0s")).toBeGreaterThan(shutdownSeconds + 5);
    expect(worker.command).toEqual(["worker", "--config", "/app/config/compose.yaml"]);
    expect(worker.ports).toEqual(["${PIM_SYNC_HTTP_PORT:-8090}:8090"]);
    expect(worker.healthcheck?.test.join(" ")).toMatch(/\/healthz/);
    expect(worker.depends_on?.redis?.condition).toBe("service_healthy");
  });

  it("the simulators are a profile of their own, on the internal network", () => {
    expect(simulators.profiles).toEqual(["sim"]);
    expect(simulators.networks).toEqual(["internal"]);
    expect(simulators.ports).toBeUndefined();
  });

  it("config/compose.yaml reaches Redis and the simulators by their service names and listens on every interface", async () => {
    const env = Object.fromEntries(Object.entries(worker.environment ?? {}).map(([key, value]) => [key, value.replace(/^\$\{[A-Z_]+:[-?](.*)\}$/, "$1").replace(/^set .*$/, `${key.toLowerCase()}-value-0123456789`)]));
    const settings = await loadSettings(new URL("config/compose.yaml", root).pathname, env);
    expect(new URL(settings.redis?.url ?? "").hostname).toBe("redis");
    expect(settings.server).toMatchObject({ host: "0.0.0.0", port: 8090 });
    expect(settings.server?.admin?.users.map((user) => user.role).sort()).toEqual(["admin", "viewer"]);
    expect(new URL(settings.projects[0]?.pim.url ?? "").hostname).toBe("simulators");
  });
});

describe("Dockerfile", async () => {
  const dockerfile = await text("Dockerfile");

  it("is multi-stage on node:20-slim, installs production dependencies only in the final stage, runs as a non-root user, checks /healthz and runs the worker", () => {
    expect(dockerfile.match(/^FROM node:20-slim/gm)).toHaveLength(2);
    const final = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(final).toMatch(/npm install --omit=dev/);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(final).toMatch(/^ENTRYPOINT \["pim-sync"\]$/m);
    expect(final).toMatch(/^CMD \["worker", "--config", "\/app\/config\/compose.yaml"\]$/m);
  });

  it(".dockerignore keeps node_modules, dist and the tests out of the build context", async () => {
    const ignored = (await text(".dockerignore")).split("\n");
    for (const entry of ["node_modules", "dist", ".git", "test"]) expect(ignored).toContain(entry);
  });

  it("every documented start command runs the program itself, never through npx or npm (which do not pass SIGTERM on)", async () => {
    // `npx vitest` (the test commands) starts no worker.
    const throughNpm = /\bnpx\s+(?!vitest\b)\S|\bnpm\s+(?:exec|start)\s/;
    const documents = {
      "README.md": await text("README.md"),
      "src/sim/README.md": await text("src/sim/README.md"),
      Dockerfile: await text("Dockerfile"),
      "docker-compose.yml": await text("docker-compose.yml"),
      "pim-sync demo's next steps": DEMO_NEXT_STEPS,
    };
    for (const [name, content] of Object.entries(documents)) {
      const offending = content.split("\n").filter((line) => throughNpm.test(line));
      expect(offending, name).toEqual([]);
    }
    expect(documents["README.md"]).toMatch(/^node dist\/src\/cli\/bin\.js worker --config/m);
  });
});
