import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/settings/config-error.js";
import { loadSettings, parseSettings } from "../../../src/settings/load-settings.js";
import type { Settings } from "../../../src/settings/settings-schema.js";
import { problemsOf } from "../../support/problems-of.js";
import { DOCUMENTED_NAMING } from "../../support/documented-naming.js";

const MINIMAL_YAML = `
projects:
  - id: 67
    pim:
      url: "https://pim.example.com"
      client_id: client
      secret: s3cret
      username: user
      password: pass
    service:
      url: "https://service.example.com"
      token: tok
`;

const MINIMAL_JSON = JSON.stringify({
  projects: [
    {
      id: 67,
      pim: { url: "https://pim.example.com", client_id: "client", secret: "s3cret", username: "user", password: "pass" },
      service: { url: "https://service.example.com", token: "tok" },
    },
  ],
});

const EXPECTED_MINIMAL: Settings = {
  state_dir: "./.pim-sync",
  log_level: "info",
  http: { timeout_ms: 30_000, max_attempts: 5, base_delay_ms: 250, max_delay_ms: 10_000, max_retry_after_ms: 60_000 },
  worker: {
    concurrency: 4,
    shutdown_timeout_ms: 30_000,
    lock_duration_ms: 30_000,
    // Half the lock when not set: a killed worker's job is taken over within lock + this.
    stalled_interval_ms: 15_000,
    max_stalled_count: 1,
    schedule_jitter_ms: 60_000,
    sync_timeout_ms: 7_200_000,
    add_options_timeout_ms: 600_000,
    keep_failed_days: 30,
    keep_completed_days: 7,
    safety_check_interval_ms: 60_000,
  },
  add_options: {
    visibility_attempts: 5,
    visibility_delay_ms: 1_000,
    recent_addition_grace_ms: 900_000,
    catalog_cache_ms: 60_000,
    locale_recheck_ms: 30_000,
  },
  budgets: { lease_ms: 5_000 },
  history: { enabled: true, retention_ms: 90 * 86_400_000 },
  held_deletions: { expiry_ms: 7 * 86_400_000 },
  event_platform: { url: "https://event.prd.sdk.akeneo.cloud/api/v1" },
  memory: { heap_growing_percent: 100 },
  projects: [
    {
      id: 67,
      pim: {
        url: "https://pim.example.com",
        client_id: "client",
        secret: "s3cret",
        username: "user",
        password: "pass",
        max_in_flight: 4,
        requests_per_second: 100,
        option_writes_per_second: 3,
      },
      service: { url: "https://service.example.com", token: "tok", requests_per_second: 10, max_in_flight: 8 },
      allowed_options_for_pim_attribute_addition: [],
      naming: { ...DOCUMENTED_NAMING },
      deletion_guard: { max_fraction: 0.5, min_count: 10, window_ms: 86_400_000 },
    },
  ],
};

/** A valid project as a plain object, to vary one key at a time. */
function project(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    pim: { url: "https://pim.example.com", client_id: "c", secret: "s", username: "u", password: "p" },
    service: { url: "https://service.example.com", token: "t" },
    ...overrides,
  };
}

function parse(document: unknown, env: Record<string, string | undefined> = {}): Settings {
  return parseSettings(JSON.stringify(document), "test.json", env);
}

describe("parseSettings: minimal configs", () => {
  it("fills every default for a minimal YAML config", () => {
    const settings = parseSettings(MINIMAL_YAML, "minimal.yaml", {});
    expect(settings).toEqual(EXPECTED_MINIMAL);
    expect(settings.redis).toBeUndefined();
    expect("redis" in settings).toBe(false);
    expect(settings.projects[0]!.channels).toBeUndefined();
    expect(settings.projects[0]!.locales).toBeUndefined();
    expect(settings.projects[0]!.schedule).toBeUndefined();
  });

  it("reads the same config written as JSON", () => {
    expect(parseSettings(MINIMAL_JSON, "minimal.json", {})).toEqual(EXPECTED_MINIMAL);
  });

  it("refuses a JSON config that repeats a key, rather than keeping the last (JSON.parse would)", () => {
    const repeated = MINIMAL_JSON.replace('{"projects":', '{"log_level":"debug","log_level":"info","projects":');
    expect(repeated).not.toBe(MINIMAL_JSON);
    expect(() => parseSettings(repeated, "repeated.json", {})).toThrow(/a key appears twice in one mapping/);
  });

  it("does not share default objects between two parses", () => {
    const a = parseSettings(MINIMAL_YAML, "a.yaml", {});
    const b = parseSettings(MINIMAL_YAML, "b.yaml", {});
    expect(a.projects[0]!.naming).not.toBe(b.projects[0]!.naming);
    expect(a.projects[0]!.deletion_guard).not.toBe(b.projects[0]!.deletion_guard);
    expect(a.projects[0]!.allowed_options_for_pim_attribute_addition).not.toBe(b.projects[0]!.allowed_options_for_pim_attribute_addition);
    expect(a.http).not.toBe(b.http);
  });

  it("keeps every value given explicitly", () => {
    const settings = parse({
      redis: { url: "rediss://cache:6380/2", prefix: "tenant.a-1", connect_timeout_ms: 2_500 },
      state_dir: "/var/lib/pim-sync",
      log_level: "debug",
      http: { timeout_ms: 5000, max_attempts: 2, base_delay_ms: 10, max_delay_ms: 100, max_retry_after_ms: 0 },
      projects: [
        project({
          pim: {
            url: "http://pim.local:8080",
            client_id: "c",
            secret: "s",
            username: "u",
            password: "p",
            max_in_flight: 2,
            requests_per_second: 50,
            option_writes_per_second: 1.5,
          },
          service: { url: "https://svc", token: "t", requests_per_second: 5, max_in_flight: 3 },
          channels: ["ecommerce", "print_2"],
          locales: ["en_US", "fr-FR", "zh_Hant_TW", "de"],
          allowed_options_for_pim_attribute_addition: ["color", "brand"],
          schedule: { cron: "0 3 * * *", timezone: "Europe/Paris" },
          naming: { select: "sel_{attribute}" },
          deletion_guard: { max_fraction: 0.2, min_count: 3 },
        }),
      ],
    });
    expect(settings.redis).toEqual({ url: "rediss://cache:6380/2", prefix: "tenant.a-1", connect_timeout_ms: 2_500 });
    expect(settings.state_dir).toBe("/var/lib/pim-sync");
    expect(settings.log_level).toBe("debug");
    expect(settings.http).toEqual({ timeout_ms: 5000, max_attempts: 2, base_delay_ms: 10, max_delay_ms: 100, max_retry_after_ms: 0 });
    const p = settings.projects[0]!;
    expect(p.pim).toMatchObject({ url: "http://pim.local:8080", max_in_flight: 2, requests_per_second: 50, option_writes_per_second: 1.5 });
    expect(p.service).toEqual({ url: "https://svc", token: "t", requests_per_second: 5, max_in_flight: 3 });
    expect(p.channels).toEqual(["ecommerce", "print_2"]);
    expect(p.locales).toEqual(["en_US", "fr-FR", "zh_Hant_TW", "de"]);
    expect(p.allowed_options_for_pim_attribute_addition).toEqual(["color", "brand"]);
    expect(p.schedule).toEqual({ cron: "0 3 * * *", timezone: "Europe/Paris" });
    // A partial naming block keeps the defaults of the templates it does not set.
    expect(p.naming).toEqual({ ...EXPECTED_MINIMAL.projects[0]!.naming, select: "sel_{attribute}" });
    expect(p.deletion_guard).toEqual({ max_fraction: 0.2, min_count: 3, window_ms: 86_400_000 });
  });

  it("fills the redis prefix when only the URL is given", () => {
    expect(parse({ redis: { url: "redis://127.0.0.1:6379" }, projects: [project()] }).redis).toEqual({
      url: "redis://127.0.0.1:6379",
      prefix: "pim-sync",
      connect_timeout_ms: 5_000,
    });
  });

  it("fills http defaults for the keys not given", () => {
    expect(parse({ http: { timeout_ms: 1000 }, projects: [project()] }).http).toEqual({
      timeout_ms: 1000,
      max_attempts: 5,
      base_delay_ms: 250,
      max_delay_ms: 10_000,
      max_retry_after_ms: 60_000,
    });
  });

  it("fills one deletion_guard key when the other is given", () => {
    expect(parse({ projects: [project({ deletion_guard: { max_fraction: 0.9 } })] }).projects[0]!.deletion_guard).toEqual({
      max_fraction: 0.9,
      min_count: 10,
      window_ms: 86_400_000,
    });
  });

  it("refuses a deletion guard window longer than the deletion records are kept (30 days), naming the key", () => {
    const problems = problemsOf(() => parse({ projects: [project({ deletion_guard: { window_ms: 30 * 86_400_000 + 1 } })] }));
    expect(problems.join("\n")).toContain("projects[0].deletion_guard.window_ms: at most 2592000000 (30 days)");
    expect(parse({ projects: [project({ deletion_guard: { window_ms: 30 * 86_400_000 } })] }).projects[0]!.deletion_guard.window_ms).toBe(
      30 * 86_400_000,
    );
  });

  it("reads the shipped example config when its variables are set", async () => {
    const { readFile } = await import("node:fs/promises");
    const text = await readFile(new URL("../../../config/example.yaml", import.meta.url), "utf8");
    const settings = parseSettings(text, "config/example.yaml", {
      PIM_CLIENT_ID: "id",
      PIM_SECRET: "secret",
      PIM_USERNAME: "user",
      PIM_PASSWORD: "pw",
      SERVICE_TOKEN: "token",
    });
    expect(settings.projects[0]!.pim.secret).toBe("secret");
    expect(settings.projects[0]!.service).toMatchObject({ token: "token" });
    expect(settings.redis).toEqual({ url: "redis://127.0.0.1:6379", prefix: "pim-sync", connect_timeout_ms: 5_000 });
  });
});

describe("parseSettings: environment variables", () => {
  const yaml = `
projects:
  - id: 1
    pim:
      url: "\${PIM_URL}"
      client_id: c
      secret: "\${PIM_SECRET}"
      username: u
      password: "p$\${NOT_A_VAR}"
    service:
      url: https://svc.example.com
      token: "Bearer-\${TOKEN}"
`;

  it("replaces ${VAR} with the environment's value", () => {
    const settings = parseSettings(yaml, "env.yaml", { PIM_URL: "https://pim.from.env", PIM_SECRET: "from-env", TOKEN: "abc" });
    expect(settings.projects[0]!.pim.url).toBe("https://pim.from.env");
    expect(settings.projects[0]!.pim.secret).toBe("from-env");
    expect(settings.projects[0]!.service).toMatchObject({ token: "Bearer-abc" });
  });

  it("keeps $${X} as a literal ${X}", () => {
    const settings = parseSettings(yaml, "env.yaml", { PIM_URL: "https://p", PIM_SECRET: "s", TOKEN: "t", NOT_A_VAR: "leak" });
    expect(settings.projects[0]!.pim.password).toBe("p${NOT_A_VAR}");
  });

  it("reports each unset variable with the key path and the variable's name", () => {
    const problems = problemsOf(() => parseSettings(yaml, "env.yaml", { PIM_URL: "https://p" }));
    expect(problems).toContain("projects[0].pim.secret: environment variable PIM_SECRET is not set");
    expect(problems).toContain("projects[0].service.token: environment variable TOKEN is not set");
    expect(problems.filter((p) => p.includes("environment variable"))).toHaveLength(2);
  });

  it("reports an unset variable even when the rest of the config is valid", () => {
    const problems = problemsOf(() => parseSettings(MINIMAL_YAML.replace("token: tok", 'token: "tok-${SUFFIX}"'), "env.yaml", {}));
    expect(problems).toEqual(["projects[0].service.token: environment variable SUFFIX is not set"]);
  });

  it("reports a key whose unset variable leaves it empty or too short once, as the unset variable", () => {
    const text = `${MINIMAL_YAML.replace("secret: s3cret", 'secret: "${PIM_SECRET}"').replace('url: "https://pim.example.com"', 'url: "${PIM_URL}"')}
trigger:
  token: "\${TRIGGER_TOKEN}"
`;
    const problems = problemsOf(() => parseSettings(text, "env.yaml", {}));
    expect(problems).toEqual([
      "projects[0].pim.url: environment variable PIM_URL is not set",
      "projects[0].pim.secret: environment variable PIM_SECRET is not set",
      "trigger.token: environment variable TRIGGER_TOKEN is not set",
    ]);
  });

  it("still reports a schema problem of a key whose variables are all set", () => {
    const text = `${MINIMAL_YAML}
trigger:
  token: "\${SHORT}"
`;
    expect(problemsOf(() => parseSettings(text, "env.yaml", { SHORT: "abc" }))).toEqual([expect.stringMatching(/^trigger\.token: .*16/)]);
  });

  it("puts the source in the error message", () => {
    expect(() => parseSettings(yaml, "my/config.yaml", {})).toThrow(/^Invalid configuration in my\/config\.yaml:\n {2}- /);
  });

  it("takes ${VAR:-default}'s default when the variable is unset or empty, and the variable's value when set", () => {
    const withRedis = `redis:\n  url: "\${REDIS_URL:-redis://redis:6379}"\n  prefix: "\${REDIS_PREFIX:-pim-sync}"\n${MINIMAL_YAML}`;
    expect(parseSettings(withRedis, "env.yaml", {}).redis).toMatchObject({ url: "redis://redis:6379", prefix: "pim-sync" });
    expect(parseSettings(withRedis, "env.yaml", { REDIS_URL: "" }).redis?.url).toBe("redis://redis:6379");
    const set = parseSettings(withRedis, "env.yaml", { REDIS_URL: "redis://10.0.0.5:6380", REDIS_PREFIX: "team-b" });
    expect(set.redis).toMatchObject({ url: "redis://10.0.0.5:6380", prefix: "team-b" });
  });
});

describe("parseSettings: service credentials", () => {
  it("accepts { url, token }", () => {
    expect(parse({ projects: [project()] }).projects[0]!.service).toEqual({
      url: "https://service.example.com",
      token: "t",
      requests_per_second: 10,
      max_in_flight: 8,
    });
  });

  it("accepts { url, email, password } and defaults token_name to pim-sync", () => {
    const service = parse({ projects: [project({ service: { url: "https://svc", email: "sync@example.com", password: "pw" } })] })
      .projects[0]!.service;
    expect(service).toEqual({
      url: "https://svc",
      email: "sync@example.com",
      password: "pw",
      token_name: "pim-sync",
      requests_per_second: 10,
      max_in_flight: 8,
    });
  });

  it("keeps an explicit token_name", () => {
    const service = parse({
      projects: [project({ service: { url: "https://svc", email: "sync@example.com", password: "pw", token_name: "nightly" } })],
    }).projects[0]!.service;
    expect(service).toMatchObject({ token_name: "nightly" });
  });

  it("rejects a service with neither a token nor a login, naming the service key", () => {
    const problems = problemsOf(() => parse({ projects: [project({ service: { url: "https://svc" } })] }));
    expect(problems).toEqual(["projects[0].service: needs either { url, token } or { url, email, password, token_name }"]);
  });

  it("rejects a login without a password", () => {
    const problems = problemsOf(() => parse({ projects: [project({ service: { url: "https://svc", email: "sync@example.com" } })] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^projects\[0\]\.service: /);
  });

  it("rejects a token mixed with a login", () => {
    const problems = problemsOf(() =>
      parse({ projects: [project({ service: { url: "https://svc", token: "t", email: "sync@example.com", password: "pw" } })] }),
    );
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith("projects[0].service"))).toBe(true);
  });

  it("rejects a bad email address", () => {
    const problems = problemsOf(() =>
      parse({ projects: [project({ service: { url: "https://svc", email: "not-an-email", password: "pw" } })] }),
    );
    expect(problems).toContain("projects[0].service.email: must be an email address");
  });

  it("rejects an empty token (blank after trimming)", () => {
    const problems = problemsOf(() => parse({ projects: [project({ service: { url: "https://svc", token: "   " } })] }));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^projects\[0\]\.service/);
  });
});

describe("parseSettings: every problem at once", () => {
  it("reports each problem of a bad config with its key path", () => {
    const yaml = `
state_dir: ""
colour: blue
http:
  timeout_ms: 10
projects:
  - id: 1
    pim:
      url: "ftp://pim.example.com"
      client_id: c
      secret: s
      username: u
      password: p
      colour: red
      max_in_flight: 11
    service:
      url: https://svc
      token: t
    channels: [ecommerce, "bad-channel"]
    locales: [english]
    deletion_guard: { max_fraction: 1.5, min_count: 0 }
  - id: 1
    pim: { url: "https://p", client_id: c, secret: s, username: u, password: p }
    service: { url: "https://s", token: t }
`;
    const problems = problemsOf(() => parseSettings(yaml, "bad.yaml", {}));
    const expectedPrefixes = [
      "state_dir: must not be empty",
      "(root): unknown key 'colour'",
      "http.timeout_ms: ",
      "projects[0].pim.url: must be an http(s) URL",
      "projects[0].pim: unknown key 'colour'",
      "projects[0].pim.max_in_flight: ",
      "projects[0].channels[1]: must be a PIM code (letters, digits, underscore)",
      "projects[0].locales[0]: must be a locale code such as en_US",
      "projects[0].deletion_guard.max_fraction: ",
      "projects[0].deletion_guard.min_count: ",
      "projects[1].id: project id 1 appears twice (also projects[0])",
    ];
    for (const prefix of expectedPrefixes) {
      expect(
        problems.filter((p) => p.startsWith(prefix)),
        `a problem starting with ${JSON.stringify(prefix)} in ${JSON.stringify(problems)}`,
      ).toHaveLength(1);
    }
    expect(problems).toHaveLength(expectedPrefixes.length);
  });

  it("names every unknown key of one object together", () => {
    const problems = problemsOf(() =>
      parse({
        projects: [
          project({ pim: { url: "https://p", client_id: "c", secret: "s", username: "u", password: "p", colour: "red", size: 3 } }),
        ],
      }),
    );
    expect(problems).toEqual(["projects[0].pim: unknown keys 'colour', 'size'"]);
  });

  it("reports missing required keys", () => {
    const problems = problemsOf(() => parse({ projects: [{ id: 1, service: { url: "https://s", token: "t" } }] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^projects\[0\]\.pim: /);
  });

  it("reports duplicate project ids, each time they repeat", () => {
    const problems = problemsOf(() =>
      parse({ projects: [project({ id: 5 }), project({ id: 6 }), project({ id: 5 }), project({ id: 5 })] }),
    );
    expect(problems).toEqual([
      "projects[2].id: project id 5 appears twice (also projects[0])",
      "projects[3].id: project id 5 appears twice (also projects[0])",
    ]);
  });

  it("needs at least one project, unless the config is Activation-only", () => {
    expect(problemsOf(() => parse({ projects: [] }))).toEqual([
      "projects: at least one project is needed (or an `activation` section, for an Activation-only deployment)",
    ]);
    const activationOnly = parseSettings(
      JSON.stringify({ activation: { url: "https://activation.example", pim_connection_id: "p", access_token: "t" } }),
      "a.json",
      {},
    );
    expect(activationOnly.projects).toEqual([]);
    expect(activationOnly.activation?.orders.retention_days).toBe(90);
    expect(activationOnly.activation?.offers).toMatchObject({ key: "sku", retention_days: 30 });
  });

  it("rejects an empty document", () => {
    const problems = problemsOf(() => parseSettings("", "empty.yaml", {}));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\(root\): /);
  });

  it("rejects a non-positive or fractional project id", () => {
    expect(problemsOf(() => parse({ projects: [project({ id: 0 })] }))[0]).toMatch(/^projects\[0\]\.id: /);
    expect(problemsOf(() => parse({ projects: [project({ id: 1.5 })] }))[0]).toMatch(/^projects\[0\]\.id: /);
    expect(problemsOf(() => parse({ projects: [project({ id: "67" })] }))[0]).toMatch(/^projects\[0\]\.id: /);
  });

  it("takes memory.heap_growing_percent, 0 for V8's own growth, and rejects a negative or fractional one naming the key", () => {
    expect(parse({ memory: { heap_growing_percent: 0 }, projects: [project()] }).memory).toEqual({ heap_growing_percent: 0 });
    expect(problemsOf(() => parse({ memory: { heap_growing_percent: -1 }, projects: [project()] }))[0]).toMatch(
      /^memory\.heap_growing_percent: /,
    );
    expect(problemsOf(() => parse({ memory: { heap_growing_percent: 12.5 }, projects: [project()] }))[0]).toMatch(
      /^memory\.heap_growing_percent: /,
    );
  });

  it("rejects a redis URL that is not redis:// or rediss://, and a bad prefix", () => {
    const problems = problemsOf(() => parse({ redis: { url: "http://cache", prefix: "has space" }, projects: [project()] }));
    expect(problems).toEqual(["redis.url: must be a redis:// or rediss:// URL", "redis.prefix: letters, digits, '.', '_' and '-' only"]);
  });

  describe("redis.cluster", () => {
    const nodes = ["redis://:pw@10.0.0.1:6379", "redis://:pw@10.0.0.2:6379", "redis://:pw@10.0.0.3"];

    it("accepts startup nodes instead of redis.url", () => {
      expect(parse({ redis: { cluster: { nodes }, prefix: "tenant-a" }, projects: [project()] }).redis).toEqual({
        cluster: { nodes, failover_wait_ms: 30_000 },
        prefix: "tenant-a",
        connect_timeout_ms: 5_000,
      });
    });

    it("redis.cluster.failover_wait_ms: how long a worker's command waits for a failover, bounded, the field named", () => {
      expect(
        parse({ redis: { cluster: { nodes, failover_wait_ms: 60_000 } }, projects: [project()] }).redis?.cluster?.failover_wait_ms,
      ).toBe(60_000);
      expect(problemsOf(() => parse({ redis: { cluster: { nodes, failover_wait_ms: 500 } }, projects: [project()] }))[0]).toMatch(
        /^redis\.cluster\.failover_wait_ms: /,
      );
      expect(problemsOf(() => parse({ redis: { cluster: { nodes, failover_wait_ms: "30s" } }, projects: [project()] }))[0]).toMatch(
        /^redis\.cluster\.failover_wait_ms: /,
      );
    });

    it("needs exactly one of url and cluster, naming the field", () => {
      expect(problemsOf(() => parse({ redis: { url: "redis://cache", cluster: { nodes } }, projects: [project()] }))).toEqual([
        "redis.cluster: give either `redis.url` (one Redis) or `redis.cluster` (a Redis Cluster), not both",
      ]);
      expect(problemsOf(() => parse({ redis: { prefix: "p" }, projects: [project()] }))).toEqual([
        "redis.url: needed (or `redis.cluster.nodes` for a Redis Cluster)",
      ]);
    });

    it("rejects an empty node list, a node that is not a redis URL, and unknown keys", () => {
      expect(problemsOf(() => parse({ redis: { cluster: { nodes: [] } }, projects: [project()] }))).toEqual([
        "redis.cluster.nodes: at least one startup node is needed",
      ]);
      expect(problemsOf(() => parse({ redis: { cluster: { nodes: ["redis://a:1", "http://b:2"] } }, projects: [project()] }))).toEqual([
        "redis.cluster.nodes[1]: must be a redis:// or rediss:// URL",
      ]);
      expect(problemsOf(() => parse({ redis: { cluster: { nodes, replicas: 1 } }, projects: [project()] }))[0]).toMatch(
        /^redis\.cluster: .*replicas/,
      );
    });

    it("makes every node agree on TLS and credentials, and on database 0, without echoing a URL", () => {
      const problems = problemsOf(() =>
        parse({
          redis: { cluster: { nodes: ["rediss://:pw@a:1", "redis://:pw@b:2", "rediss://:other-secret@c:3", "rediss://:pw@d:4/2"] } },
          projects: [project()],
        }),
      );
      expect(problems).toEqual([
        "redis.cluster.nodes[1]: every node must use the same scheme (all redis:// or all rediss://)",
        "redis.cluster.nodes[2]: every node must carry the same user and password as the first",
        "redis.cluster.nodes[3]: a Redis Cluster has only database 0: drop the path",
      ]);
      expect(problems.join("\n")).not.toMatch(/other-secret|pw@/);
    });
  });

  it("rejects an empty channel or locale list", () => {
    const problems = problemsOf(() => parse({ projects: [project({ channels: [], locales: [] })] }));
    expect(problems.map((p) => p.split(":")[0])).toEqual(["projects[0].channels", "projects[0].locales"]);
  });

  it("rejects an empty schedule cron", () => {
    expect(problemsOf(() => parse({ projects: [project({ schedule: { cron: " " } })] }))).toEqual([
      "projects[0].schedule.cron: must not be empty",
    ]);
  });

  it("rejects rates out of range", () => {
    const problems = problemsOf(() =>
      parse({
        projects: [
          project({
            pim: {
              url: "https://p",
              client_id: "c",
              secret: "s",
              username: "u",
              password: "p",
              requests_per_second: 0,
              option_writes_per_second: 101,
            },
            service: { url: "https://s", token: "t", requests_per_second: 101 },
          }),
        ],
      }),
    );
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual(
      ["projects[0].pim.option_writes_per_second", "projects[0].pim.requests_per_second", "projects[0].service.requests_per_second"].sort(),
    );
  });

  it("reports a bad naming template under projects[i].naming", () => {
    const problems = problemsOf(() =>
      parse({ projects: [project(), project({ id: 2, naming: { select: "{attr}", unit: "{attribute}-{locale}" } })] }),
    );
    expect(problems).toEqual([
      "projects[1].naming: naming template 'select' uses unknown placeholder {attr}",
      "projects[1].naming: naming template 'select' must use {attribute}",
      "projects[1].naming: naming template 'unit' must not use {locale}",
    ]);
  });

  it("reports an unmatched brace in a naming template", () => {
    const problems = problemsOf(() => parse({ projects: [project({ naming: { currency: "{attribute}-currency}" } })] }));
    expect(problems).toEqual(["projects[0].naming: naming template 'currency' has an unmatched '{' or '}'"]);
  });

  it("rejects an unknown log level", () => {
    const problems = problemsOf(() => parse({ log_level: "chatty", projects: [project()] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^log_level: .*"silent"/);
  });

  it("reports duplicate project ids together with a bad log_level", () => {
    const problems = problemsOf(() => parse({ log_level: "chatty", projects: [project(), project()] }));
    expect(problems.some((p) => p.startsWith("log_level: "))).toBe(true);
    expect(problems).toContain("projects[1].id: project id 1 appears twice (also projects[0])");
  });

  it("reports a bad naming template together with the other problems", () => {
    const problems = problemsOf(() => parse({ projects: [project({ naming: { select: "{attr}" } }), project()] }));
    expect(problems).toContain("projects[1].id: project id 1 appears twice (also projects[0])");
    expect(problems).toContain("projects[0].naming: naming template 'select' uses unknown placeholder {attr}");
  });

  it("names the localizable_scopable template by its configuration key", () => {
    const problems = problemsOf(() => parse({ projects: [project({ naming: { localizable_scopable: "{attribute}-{locale}" } })] }));
    expect(problems).toEqual(["projects[0].naming: naming template 'localizable_scopable' must use {channel}"]);
  });
});

describe("parseSettings: unreadable text", () => {
  it("throws a ConfigError for invalid YAML", () => {
    let caught: unknown;
    try {
      parseSettings("projects: [\n  - id: 1\n  bad: : :", "broken.yaml", {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^not valid YAML or JSON: /);
    expect((caught as ConfigError).message).toMatch(/^Invalid configuration in broken\.yaml:/);
  });

  it("throws a ConfigError for broken JSON", () => {
    const problems = problemsOf(() => parseSettings('{"projects": [', "broken.json", {}));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^not valid YAML or JSON: /);
  });

  it("rejects a document that is a list, not a mapping", () => {
    const problems = problemsOf(() => parseSettings("- a\n- b\n", "list.yaml", {}));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\(root\): /);
  });
});

/** Runs `body` with a fresh folder under the system's temp folder, removed afterwards. */
async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-settings-"));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("loadSettings", () => {
  it("reads, interpolates and validates a file", () =>
    inTempDir(async (dir) => {
      const file = join(dir, "config.yaml");
      await writeFile(file, MINIMAL_YAML.replace("token: tok", 'token: "${TOKEN}"'));
      const settings = await loadSettings(file, { TOKEN: "from-env" });
      expect(settings.projects[0]!.service).toMatchObject({ token: "from-env" });
    }));

  it("throws a ConfigError naming the file when it cannot be read", () =>
    inTempDir(async (dir) => {
      const file = join(dir, "missing.yaml");
      const error = await loadSettings(file, {}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(file);
      expect((error as ConfigError).problems).toHaveLength(1);
      expect((error as ConfigError).problems[0]).toMatch(/^cannot read the file: .*ENOENT/);
    }));

  it("reports problems with the file path as source", () =>
    inTempDir(async (dir) => {
      const file = join(dir, "bad.json");
      await writeFile(file, JSON.stringify({ projects: [] }));
      await expect(loadSettings(file, {})).rejects.toThrow(`Invalid configuration in ${file}:`);
    }));
});

describe("parseSettings: a syntax error never quotes the file", () => {
  const SECRET = "Sup3r-s3cret-Passw0rd";
  it.each([
    [
      "an unclosed quote",
      `projects:\n  - id: 1\n    pim:\n      password: "${SECRET}\n      secret: x\n`,
      /^not valid YAML or JSON: line \d+, column \d+: a closing quote or bracket is missing$/,
    ],
    ["an unclosed flow sequence", `projects: [${SECRET}\n`, /^not valid YAML or JSON: line 2, column 1: /],
    ["a value with ': ' in it", `password: a: ${SECRET}\n`, /^not valid YAML or JSON: line 1, column 11: a mapping is nested on one line/],
    [
      "a bad escape",
      `password: "${SECRET}\\q"\n`,
      /^not valid YAML or JSON: line 1, column \d+: a double-quoted string has an invalid escape sequence$/,
    ],
    [
      "a tab as indentation",
      `projects:\n\tpassword: ${SECRET}\n`,
      /^not valid YAML or JSON: line 2, column 1: tabs are not allowed as indentation$/,
    ],
    ["broken JSON", `{"password": "${SECRET}" "x": 1}`, /^not valid YAML or JSON: line 1, column \d+: unexpected text/],
    ["an alias to no anchor", `password: *${SECRET}\n`, /^not valid YAML or JSON: an alias \(\*name\) refers to no anchor/],
    // The parser only warns and reads the value as a string; a config must not start on a guess.
    ["an unknown tag", `password: !secret ${SECRET}\n`, /^not valid YAML or JSON: line 1, column 11: a tag cannot be resolved$/],
  ])("%s: line, column and reason, without the secret", (_, text, expected) => {
    let caught: unknown;
    try {
      parseSettings(text, "secret.yaml", {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain(SECRET.slice(0, 6));
    expect((caught as ConfigError).problems[0]).toMatch(expected);
  });

  it("prints no parser warning (its text quotes the line) for an unknown tag", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      expect(() => parseSettings(`password: !vault ${SECRET}\n`, "tag.yaml", {})).toThrow(ConfigError);
      // Node emits warnings on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.join("\n")).not.toContain(SECRET);
  });
});

describe("parseSettings: server.auth_throttle", () => {
  it("defaults to 10 failures in 15 minutes and one warning per address a minute", () => {
    expect(parse({ server: {}, projects: [project()] }).server?.auth_throttle).toEqual({
      max_failures: 10,
      window_ms: 900_000,
      log_interval_ms: 60_000,
    });
  });

  it("names each bad field", () => {
    const problems = problemsOf(() =>
      parse({ server: { auth_throttle: { max_failures: 0, window_ms: 10, log_interval_ms: -1, burst: 3 } }, projects: [project()] }),
    );
    expect(problems.join("\n")).toMatch(/server\.auth_throttle\.max_failures/);
    expect(problems.join("\n")).toMatch(/server\.auth_throttle\.window_ms/);
    expect(problems.join("\n")).toMatch(/server\.auth_throttle\.log_interval_ms/);
    expect(problems.join("\n")).toMatch(/burst/);
  });
});
