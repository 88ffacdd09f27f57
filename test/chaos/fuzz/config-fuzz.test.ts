/**
 * Fuzzing config files: a valid config with one part broken (a value replaced by any JSON, a key
 * removed or added, an env reference to an unset variable), or text that is not a config at all,
 * as YAML or JSON. The settings loader answers each with settings or a ConfigError naming every
 * wrong field; the CLI exits 2 with that message, never a stack trace. A secret written in the
 * file never appears in the message.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify as toYaml } from "yaml";
import { ConfigError } from "../../../src/settings/config-error.js";
import { parseSettings } from "../../../src/settings/load-settings.js";
import { assertCliBuilt, killLeftoverProcesses, spawnCli, waitForExit } from "../../support/process-cli.js";
import { CHAOS_SIZES, chaosSeed } from "../support/chaos-scale.js";
import { chaosCounters } from "../support/chaos-results.js";

const SEED = chaosSeed();
/** Written literally in the fuzzed files: must never be quoted back. */
const SECRET = "Fz9-literal-secret-q7Wm2";
/** A problem names its field (`projects[0].pim.url: ...`, `(root): ...`) or says the file is not YAML. */
const NAMED_PROBLEM = /^([A-Za-z_(][^\n]*?: \S|not valid YAML or JSON: )/;

function validConfig(): Record<string, unknown> {
  return {
    redis: { url: "redis://127.0.0.1:6379", prefix: "fuzz" },
    log_level: "info",
    http: { timeout_ms: 5000, max_attempts: 3 },
    worker: { concurrency: 2 },
    trigger: { host: "127.0.0.1", port: 8090, token: SECRET },
    add_options: { visibility_attempts: 3 },
    projects: [
      {
        id: 67,
        pim: { url: "http://127.0.0.1:9", client_id: "client", secret: SECRET, username: "user", password: SECRET },
        service: { url: "http://127.0.0.1:9", token: SECRET },
        channels: ["ecommerce"],
        locales: ["en_US"],
        allowed_options_for_pim_attribute_addition: ["color"],
        schedule: { cron: "*/5 * * * *" },
        naming: { select: "{attribute}" },
        deletion_guard: { max_fraction: 0.5, min_count: 10 },
      },
    ],
  };
}

/** Every path to a value of the valid config (objects and arrays included). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...pathsOf(item, [...prefix, index])));
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...prefix, key]));
  return out;
}

const PATHS = pathsOf(validConfig());

type Mutation =
  | { readonly kind: "replace"; readonly path: (string | number)[]; readonly value: unknown }
  | { readonly kind: "remove"; readonly path: (string | number)[] }
  | { readonly kind: "add"; readonly path: (string | number)[]; readonly key: string; readonly value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("replace" as const),
    path: fc.constantFrom(...PATHS),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom<unknown>("${UNSET_FUZZ_VAR}", "$${x}", -1, 0, "", "not a url", Number.MAX_VALUE, Number.MIN_VALUE),
    ),
  }),
  fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...PATHS) }),
  fc.record({
    kind: fc.constant("add" as const),
    path: fc.constantFrom([], ...PATHS),
    key: fc.string({ minLength: 1, maxLength: 10 }),
    value: fc.jsonValue({ maxDepth: 1 }),
  }),
);

function applyMutation(config: Record<string, unknown>, change: Mutation): void {
  const parentPath = change.kind === "add" ? change.path : change.path.slice(0, -1);
  let parent: unknown = config;
  for (const step of parentPath) {
    // An earlier mutation may have removed or replaced what this one reaches into.
    if (typeof parent !== "object" || parent === null) return;
    parent = (parent as Record<string | number, unknown>)[step];
  }
  if (typeof parent !== "object" || parent === null) return;
  const container = parent as Record<string | number, unknown>;
  if (change.kind === "add") {
    if (!Array.isArray(container)) container[change.key] = change.value;
    return;
  }
  const last = change.path[change.path.length - 1];
  if (last === undefined) return;
  if (change.kind === "replace") container[last] = change.value;
  else if (Array.isArray(container) && typeof last === "number") container.splice(last, 1);
  else delete container[last];
}

const configText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.constantFrom("yaml", "json")).map(([changes, format]) => {
      const config = validConfig();
      for (const change of changes) applyMutation(config, change);
      return format === "yaml" ? toYaml(config) : JSON.stringify(config, null, 2);
    }),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  // Broken YAML around a secret written literally.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `projects:\n  - id: 67\n    service: { token: ${SECRET}\n`,
      `trigger:\n  token: "${SECRET}\n  port: [`,
      `log_level: info\n\ttoken: ${SECRET}\n`,
    ),
  },
);

/** The loader's verdict on a text: settings, or the ConfigError it threw (anything else fails the property). */
function load(text: string): { ok: true } | { ok: false; error: ConfigError } {
  try {
    parseSettings(text, "fuzz.yaml", {});
    return { ok: true };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, error };
    throw error;
  }
}

describe(`chaos: fuzzing config files (seed ${SEED})`, () => {
  const results = chaosCounters("config-fuzz");
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pim-sync-chaos-config-"));
  });

  afterAll(async () => {
    await killLeftoverProcesses();
    await rm(dir, { recursive: true, force: true });
  });

  it("the settings loader: settings, or a ConfigError naming the field of every problem", () => {
    fc.assert(
      fc.property(configText, (text) => {
        results.add({ fuzzCases: 1 });
        const verdict = load(text);
        if (verdict.ok) return;
        expect(verdict.error.problems.length, verdict.error.message).toBeGreaterThan(0);
        for (const problem of verdict.error.problems) expect(problem, verdict.error.message).toMatch(NAMED_PROBLEM);
        expect(verdict.error.message).not.toMatch(/\n\s+at /);
      }),
      { numRuns: CHAOS_SIZES.configFuzzCases, seed: SEED },
    );
  });

  it("a config error never quotes a secret written in the file (issue 7, defect 9)", () => {
    fc.assert(
      fc.property(configText, (text) => {
        const verdict = load(text);
        if (!verdict.ok) expect(verdict.error.message).not.toContain(SECRET);
      }),
      { numRuns: CHAOS_SIZES.configFuzzCases, seed: SEED },
    );
  });

  it("the CLI: exit 2 with the message, never a stack trace", async () => {
    assertCliBuilt();
    const texts = fc
      .sample(configText, { numRuns: CHAOS_SIZES.cliConfigFuzzCases * 4, seed: SEED })
      .filter((text) => !load(text).ok)
      .slice(0, CHAOS_SIZES.cliConfigFuzzCases);
    expect(texts.length).toBeGreaterThan(0);
    for (const [index, text] of texts.entries()) {
      const path = join(dir, `fuzz-${index}.yaml`);
      await writeFile(path, text);
      const cli = spawnCli(["plan", "--config", path, "--project", "67"]);
      const exit = await waitForExit(cli, 20_000);
      const stderr = cli.stderr();
      const what = `config:\n${text.slice(0, 500)}\nstderr:\n${stderr.slice(0, 1000)}`;
      expect(exit, what).toEqual({ code: 2, signal: null });
      expect(stderr, what).toMatch(/^pim-sync plan: Invalid configuration in /);
      expect(stderr, what).not.toMatch(/\n\s+at /);
      results.add({ fuzzCases: 1 });
    }
  });
});
