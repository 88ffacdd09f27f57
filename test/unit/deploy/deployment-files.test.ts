/**
 * No Docker engine runs in CI: these checks read the deployment files as a reviewer would, so
 * the mistakes a team met cannot come back unnoticed: a config baked into the image, a compose
 * file naming variables no .env.example lists, plain HTTP published on every interface,
 * `npm install` instead of `npm ci`, a healthcheck on the host's port, Redis at 127.0.0.1 inside
 * the container, no persistence, a grace period shorter than the shutdown timeout, a program
 * started through npm or a shell, a second project or tracing needing an edit of the compose file.
 * What reading cannot show (the image's tree installs and its worker answers) is
 * scripts/check-image-tree.ts's, run by CI after `npm test`.
 */
import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { DEMO_NEXT_STEPS } from "../../../src/cli/commands/demo-command.js";
import { loadSettings, parseSettings } from "../../../src/settings/load-settings.js";
import { CLI_BUNDLE, CLI_BUNDLE_DIR } from "../../../scripts/cli-bundle-paths.js";
import { settingsSchema } from "../../../src/settings/settings-schema.js";

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
  env_file: z.array(z.string()).optional(),
  networks: z.array(z.string()).optional(),
  profiles: z.array(z.string()).optional(),
  init: z.boolean().optional(),
  restart: z.string().optional(),
  stop_grace_period: z.string().optional(),
  healthcheck: z.looseObject({ test: z.array(z.string()) }).optional(),
  depends_on: z.record(z.string(), z.looseObject({ condition: z.string() })).optional(),
});
const composeSchema = z.strictObject({
  services: z.strictObject({ redis: service, worker: service, proxy: service, simulators: service }),
  networks: z.record(z.string(), z.looseObject({ internal: z.boolean().optional() })),
  volumes: z.record(z.string(), z.unknown()),
});

const seconds = (duration: string): number => {
  const match = /^(\d+)s$/.exec(duration);
  if (!match?.[1]) throw new Error(`unexpected duration '${duration}'`);
  return Number(match[1]);
};

/** The `${VAR}` (and `${VAR:-x}`, `${VAR:?x}`) compose interpolates in the file's values (not its comments); `$${` and `$$VAR` are escapes. */
function composeVariables(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "string") for (const match of value.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) into.add(match[1] ?? "");
  else if (Array.isArray(value)) for (const item of value) composeVariables(item, into);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) composeVariables(item, into);
  return into;
}

/** The variables a config file names (`${VAR}`, `${VAR:-x}`), in its values only: a YAML comment names none. */
function configVariables(configText: string): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") for (const match of value.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1] ?? "");
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(parse(configText));
  return names;
}

/** A short-syntax port or volume split on its colons, those inside `${...}` kept. */
function fieldsOf(spec: string): string[] {
  return spec.match(/(?:\$\{[^}]*\}|[^:])+/g) ?? [];
}

/** `KEY=value` lines of a dotenv file (comments and blank lines skipped, one level of quotes removed). */
function dotenvEntries(source: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of source.split("\n")) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    entries.set(match[1], match[2].replace(/^'(.*)'$/, "$1"));
  }
  return entries;
}

/** `host:container` or `ip:host:container` of a compose short port syntax. */
function publishedPort(spec: string): { readonly ip: string | undefined; readonly container: number } {
  const parts = fieldsOf(spec.replace(/\/(tcp|udp)$/, ""));
  const container = Number(parts.at(-1));
  return { ip: parts.length === 3 ? parts[0] : undefined, container };
}

describe("the deployment files", async () => {
  const composeText = await text("docker-compose.yml");
  const compose = composeSchema.parse(parse(composeText));
  const { redis, worker, proxy, simulators } = compose.services;
  const dockerfile = await text("Dockerfile");
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const envExample = dotenvEntries(await text(".env.example"));
  const caddyfile = await text("deploy/Caddyfile");

  /** The config the worker reads: its mount's host folder (from .env.example) joined with the command's path. */
  const configMount = (): { readonly hostDir: string; readonly containerDir: string } => {
    const mounts = (worker.volumes ?? []).map(fieldsOf);
    expect(mounts).toHaveLength(1);
    const [source = "", target = "", mode] = mounts[0] ?? [];
    expect(mode).toBe("ro");
    const variable = /^\$\{([A-Z_]+):\?[^}]*\}$/.exec(source)?.[1];
    expect(variable, `the mount's host folder '${source}' comes from a required variable`).toBeDefined();
    return { hostDir: envExample.get(variable ?? "") ?? "", containerDir: target };
  };

  /** The mounted config's text: its host folder (from .env.example) and the file the image's PIM_SYNC_CONFIG names in it. */
  const mountedConfigText = (): Promise<string> => {
    const { hostDir, containerDir } = configMount();
    const containerPath = /^ENV PIM_SYNC_CONFIG=(\S+)$/m.exec(finalStage)?.[1] ?? "";
    expect(containerPath.startsWith(`${containerDir}/`), `PIM_SYNC_CONFIG=${containerPath} is under the mount ${containerDir}`).toBe(true);
    return text(`${hostDir.replace(/^\.\//, "")}/${containerPath.slice(containerDir.length + 1)}`);
  };

  /**
   * The worker container's environment as compose makes it from a .env: every entry (env_file),
   * then `environment`, whose `${VAR:?...}` compose fills from the same .env.
   */
  const workerEnvironment = (dotenv: ReadonlyMap<string, string>): Record<string, string> => {
    const env: Record<string, string> = {};
    if (worker.env_file?.includes(".env")) for (const [name, value] of dotenv) env[name] = value;
    for (const [name, value] of Object.entries(worker.environment ?? {}))
      env[name] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::[?-][^}]*)?\}/g, (_match, variable: string) => dotenv.get(variable) ?? "");
    return env;
  };

  describe("docker-compose.yml", () => {
    it("Redis keeps its data (AOF on a named volume), never evicts, needs a password and is not published", () => {
      const command = (redis.command ?? []).join(" ");
      expect(command).toMatch(/--appendonly yes/);
      expect(command).toMatch(/--maxmemory-policy noeviction/);
      expect(command).toMatch(/--requirepass "\$\$REDIS_PASSWORD"/);
      expect(command).toMatch(/^sh -c exec redis-server/);
      expect(redis.volumes).toEqual(["redis-data:/data"]);
      expect(Object.keys(compose.volumes)).toContain("redis-data");
      expect(redis.ports).toBeUndefined();
      expect(redis.networks).toEqual(["internal"]);
      expect(compose.networks.internal?.internal).toBe(true);
      expect(redis.healthcheck).toBeDefined();
    });

    it("the worker runs the built image under an init, with its configuration mounted read-only and a grace period longer than its shutdown timeout", () => {
      expect(worker.build).toBe(".");
      expect(JSON.stringify(worker)).not.toMatch(/npm (ci|install)/);
      expect(worker.init).toBe(true);
      expect(worker.restart).toBe("unless-stopped");
      const shutdownSeconds = settingsSchema.shape.worker.parse(undefined).shutdown_timeout_ms / 1000;
      expect(seconds(worker.stop_grace_period ?? "0s")).toBeGreaterThan(shutdownSeconds + 5);
      // The image's own command, which finds the mounted config through PIM_SYNC_CONFIG.
      expect(worker.command).toBeUndefined();
      expect(worker.depends_on?.redis?.condition).toBe("service_healthy");
    });

    it("plain HTTP is published on the host's loopback only; the proxy alone listens on every interface, on 80 and 443", () => {
      for (const [name, definition] of Object.entries(compose.services)) {
        if (name === "proxy") continue;
        for (const spec of definition.ports ?? []) expect(publishedPort(spec).ip, `${name} publishes ${spec}`).toBe("127.0.0.1");
      }
      expect(worker.ports).toHaveLength(1);
      expect(proxy.profiles).toEqual(["proxy"]);
      expect((proxy.ports ?? []).map((spec) => publishedPort(spec).container).sort()).toEqual([443, 80]);
      expect(proxy.volumes).toContain("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro");
      expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(["caddy-data", "caddy-config"]));
    });

    it("the simulators are a profile of their own, on the internal network, unpublished", () => {
      expect(simulators.profiles).toEqual(["sim"]);
      expect(simulators.networks).toEqual(["internal"]);
      expect(simulators.ports).toBeUndefined();
    });

    it("every variable compose reads is listed in .env.example, and every entry there is read by compose or the mounted config", async () => {
      const used = composeVariables(parse(composeText));
      expect([...used].filter((name) => !envExample.has(name))).toEqual([]);
      const readByConfig = configVariables(await mountedConfigText());
      expect([...envExample.keys()].filter((name) => !used.has(name) && !readByConfig.has(name))).toEqual([]);
    });

    it("passes all of .env to the worker, so the mounted config may name any variable without an edit here", () => {
      expect(worker.env_file).toEqual([".env"]);
    });

    it("no secret has a default in compose: each is required and blank in .env.example", () => {
      const secrets = ["REDIS_PASSWORD", "TRIGGER_TOKEN", "METRICS_TOKEN", "ADMIN_PASSWORD", "VIEWER_PASSWORD"];
      for (const name of secrets) {
        expect(composeText, name).not.toMatch(new RegExp(`\\$\\{${name}:-`));
        expect(worker.environment?.[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
        expect(envExample.get(name), name).toBe("");
      }
    });
  });

  describe("the mounted configuration (config/compose.yaml)", () => {
    /** .env.example's values, the blank secrets filled in; the Redis password holds every character a URL would break on. */
    const REDIS_PASSWORD = "p@ss/w#rd?%40:x";
    const environment = (): Record<string, string> => {
      const env: Record<string, string> = {};
      for (const [name, value] of envExample) env[name] = value === "" ? `${name.toLowerCase()}-value-0123456789` : value;
      return { ...env, REDIS_PASSWORD };
    };

    it("is not in the image: the Dockerfile copies no configuration, and every command reads the one under the worker's mount", () => {
      const { containerDir } = configMount();
      expect(dockerfile).not.toMatch(/^COPY\s+config(\/[^\s]*\.ya?ml)?\s/m);
      expect(dockerfile).not.toMatch(/^COPY\s+config\/?\s/m);
      expect(finalStage).toMatch(new RegExp(`^ENV PIM_SYNC_CONFIG=${containerDir}/compose\\.yaml$`, "m"));
      expect(finalStage).toMatch(/^CMD \["worker"\]$/m);
    });

    it("loads with .env.example's values: Redis and the simulators by their service names, the password apart from the URL, every variable passed to the worker", async () => {
      const { hostDir } = configMount();
      const path = new URL(`${hostDir.replace(/^\.\//, "")}/compose.yaml`, root).pathname;
      const configText = await readFile(path, "utf8");
      const given = workerEnvironment(new Map(Object.entries(environment())));
      const withDefault = new Set([...configText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):-/g)].map((match) => match[1] ?? ""));
      expect([...configVariables(configText)].filter((name) => given[name] === undefined && !withDefault.has(name))).toEqual([]);

      const settings = await loadSettings(path, given);
      expect(settings.redis?.url).toBe("redis://redis:6379");
      expect(settings.redis?.password).toBe(REDIS_PASSWORD);
      expect(settings.server?.admin?.users.map((user) => user.role).sort()).toEqual(["admin", "viewer"]);
      expect(new URL(settings.projects[0]?.pim.url ?? "").hostname).toBe("simulators");
    });

    it("serves another project, with PIM events, and traces, by compose.yaml and .env alone: the example project its comment shows loads", async () => {
      const configText = await mountedConfigText();
      // The commented example entry, uncommented in place: what a team writes for its second project.
      const example = configText.split("\n").filter((line) => line.startsWith("  #   "));
      expect(example.length).toBeGreaterThan(0);
      const withSecondProject = configText.replace(/^ {2}# {3}(.*)$/gm, "  $1");
      const withDefault = new Set([...withSecondProject.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):-/g)].map((match) => match[1] ?? ""));
      const variables = [...configVariables(withSecondProject)].filter((name) => !envExample.has(name) && !withDefault.has(name));
      expect(variables).toContain("PIM_68_EVENTS_SECRET");
      const dotenv = new Map(Object.entries(environment()));
      for (const name of variables)
        dotenv.set(name, name.endsWith("_URL") ? `https://${name.toLowerCase()}.example.com` : `${name.toLowerCase()}-0123456789`);
      dotenv.set("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector:4318");

      const env = workerEnvironment(dotenv);
      const settings = parseSettings(withSecondProject, "compose.yaml", env);
      expect(settings.projects.map((project) => project.id)).toEqual([68, 67]);
      // A schedule in each, the template's too: without one the worker warns (the safety net for lost events).
      expect(settings.projects.filter((project) => project.schedule === undefined).map((project) => project.id)).toEqual([]);
      expect(settings.projects[0]?.pim.events?.secret).toBe("pim_68_events_secret-0123456789");
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe("http://otel-collector:4318");
    });

    it("listens on every interface of the container, on the port the image exposes and checks, which compose publishes", async () => {
      const { hostDir } = configMount();
      const settings = await loadSettings(new URL(`${hostDir.replace(/^\.\//, "")}/compose.yaml`, root).pathname, environment());
      const port = settings.server?.port;
      expect(settings.server?.host).toBe("0.0.0.0");
      expect(finalStage).toMatch(new RegExp(`^EXPOSE ${port}$`, "m"));
      expect(worker.ports?.map((spec) => publishedPort(spec).container)).toEqual([port]);
      expect(caddyfile).toMatch(new RegExp(`^\\s*reverse_proxy worker:${port}$`, "m"));
    });
  });

  describe("Dockerfile", () => {
    it("installs exactly the lock file's versions (npm ci) in both stages, production ones only in the final one", () => {
      expect(dockerfile.match(/^FROM node:24-slim/gm)).toHaveLength(2);
      expect(dockerfile).not.toMatch(/^RUN .*npm install/m);
      expect(dockerfile.match(/^RUN npm ci /gm)).toHaveLength(2);
      expect(finalStage).toMatch(/^RUN npm ci --omit=dev /m);
      expect(finalStage).toMatch(/^USER node$/m);
    });

    it("its healthcheck asks /healthz on the container's own port, never a variable compose sets to the host's", () => {
      const healthcheck = /^HEALTHCHECK [^\n]*\\\n(.*)$/m.exec(finalStage)?.[1] ?? "";
      expect(healthcheck).toMatch(/\/healthz/);
      expect(healthcheck).not.toMatch(/process\.env|\$/);
      const exposed = /^EXPOSE (\d+)$/m.exec(finalStage)?.[1];
      expect(healthcheck).toContain(`http://127.0.0.1:${exposed}/healthz`);
      // A compose healthcheck would replace the image's: none, or one on the same port.
      if (worker.healthcheck) expect(worker.healthcheck.test.join(" ")).toContain(`127.0.0.1:${exposed}/`);
    });

    it("holds the bundled CLI alone: no simulators, no module-a-file build, which the compose sim profile builds from a stage of its own", () => {
      const copies = finalStage.split("\n").filter((line) => line.startsWith("COPY --from=build"));
      expect(copies).toEqual([`COPY --from=build /app/${CLI_BUNDLE_DIR} ./${CLI_BUNDLE_DIR}`]);
      expect(compose.services.simulators.build).toEqual({ context: ".", target: "simulators" });
      expect(dockerfile).toMatch(/^FROM build AS simulators$/m);
    });

    it("runs the program itself: node on the bundled CLI, exec form, no npm, npx or shell in between", () => {
      expect(finalStage.split("\n")).toContain(`ENTRYPOINT ["node", "/app/${CLI_BUNDLE}"]`);
      for (const definition of Object.values(compose.services)) expect(definition.entrypoint).toBeUndefined();
    });
  });

  describe("the reverse proxy (deploy/Caddyfile)", () => {
    it("serves a domain (HTTPS, never an http:// site) from the variable compose passes it", () => {
      const sites = caddyfile.split("\n").filter((line) => /^\S.*\{$/.test(line));
      expect(sites).toEqual(["{$PIM_SYNC_DOMAIN} {"]);
      expect(proxy.environment?.PIM_SYNC_DOMAIN).toBeDefined();
    });
  });

  it(".dockerignore keeps node_modules, dist, the tests and .env (secrets) out of the build context; git ignores .env", async () => {
    const ignored = (await text(".dockerignore")).split("\n");
    for (const entry of ["node_modules", "dist", ".git", "test", ".env"]) expect(ignored).toContain(entry);
    expect((await text(".gitignore")).split("\n")).toContain(".env");
  });

  it("every documented start command runs the program itself, never through npx or npm (which do not pass SIGTERM on)", async () => {
    // Starting pim-sync through npx or npm (`npx pim-sync`, `npm exec pim-sync`, `npm start`, `npx node dist/...`);
    // npx running a tool (`npx vitest`, a validator) starts no worker.
    const throughNpm = /\bnpx\s+(?:-\S+\s+)*(?:pim-sync\b|node\s)|\bnpm\s+exec\s+(?:--\s+)?pim-sync\b|\bnpm\s+start\b/;
    const docs = (await readdir(new URL("../../../docs/", import.meta.url), { recursive: true })).filter((name) => name.endsWith(".md"));
    expect(docs).toContain("docker.md");
    const documents: Record<string, string> = {
      "README.md": await text("README.md"),
      "CONTRIBUTING.md": await text("CONTRIBUTING.md"),
      ...Object.fromEntries(await Promise.all(docs.map(async (name) => [`docs/${name}`, await text(`docs/${name}`)] as const))),
      "sim/README.md": await text("sim/README.md"),
      Dockerfile: dockerfile,
      "docker-compose.yml": composeText,
      "pim-sync demo's next steps": DEMO_NEXT_STEPS,
    };
    for (const [name, content] of Object.entries(documents)) {
      const offending = content.split("\n").filter((line) => throughNpm.test(line));
      expect(offending, name).toEqual([]);
    }
    expect(documents["README.md"]).toMatch(/^node dist\/bin\/pim-sync\.js worker --config/m);
  });
});
