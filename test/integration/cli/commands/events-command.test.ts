import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SUBSCRIBED_EVENT_TYPES } from "../../../../src/features/events/pim-event.js";
import { assertCliBuilt, killLeftoverProcesses, spawnCli, waitForExit, type CliProcess } from "../../../support/process-cli.js";
import { testConfigObject } from "../../../support/process-config.js";

const SECRET = "primary-events-secret-5f1c9a7e";
const SECONDARY = "secondary-events-secret-b24d80";
const EXIT_MS = 60_000;

/** What `pim-sync events` prints: parsed, so a missing or misspelt field fails here. */
const subscriptionSchema = z.strictObject({
  type: z.literal("https"),
  url: z.string(),
  events: z.array(z.string()),
  secret: z.strictObject({ primary: z.string(), secondary: z.string().optional() }),
  subject: z.string().optional(),
  pim_url: z.string(),
});

describe("pim-sync events: the subscription a project needs, never its secret", () => {
  let dir: string;
  let config: string;

  beforeAll(() => assertCliBuilt());
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pim-sync-events-cli-"));
    // No simulator and no Redis: the command only reads the config.
    const object = testConfigObject({
      pimUrl: "http://127.0.0.1:9/pim",
      serviceUrl: "http://127.0.0.1:9/service",
      redisPrefix: null,
      stateDir: join(dir, "state"),
    });
    const [project] = object.projects as Record<string, unknown>[];
    const withEvents = {
      ...project,
      pim: {
        ...(project?.pim as object),
        events: { secret: "${PIM_EVENTS_SECRET}", secondary_secret: "${PIM_EVENTS_SECONDARY}", subject: "tenant-42" },
      },
    };
    const without = { ...project, id: 68 };
    config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ ...object, projects: [withEvents, without] }));
  });
  afterEach(async () => {
    await killLeftoverProcesses();
    await rm(dir, { recursive: true, force: true });
  });

  async function events(args: readonly string[]): Promise<CliProcess> {
    const proc = spawnCli(["events", ...args], { env: { PIM_EVENTS_SECRET: SECRET, PIM_EVENTS_SECONDARY: SECONDARY } });
    await waitForExit(proc, EXIT_MS);
    return proc;
  }

  it("prints the URL, the event types and which config keys hold the secrets, not their values", async () => {
    const proc = await events(["--config", config, "--project", "67", "--url", "https://sync.example.com/base/"]);

    expect(proc.child.exitCode).toBe(0);
    const printed = subscriptionSchema.parse(JSON.parse(proc.stdout()));
    expect(printed.url).toBe("https://sync.example.com/v1/pim-events/67");
    expect(printed.events).toEqual(SUBSCRIBED_EVENT_TYPES);
    expect(printed.events).toContain("com.akeneo.pim.v1.attribute-option.created");
    expect(printed.secret).toEqual({
      primary: "projects[id=67].pim.events.secret",
      secondary: "projects[id=67].pim.events.secondary_secret",
    });
    expect(printed.subject).toBe("tenant-42");
    const everything = proc.stdout() + proc.stderr();
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(SECONDARY);
    // https: no warning.
    expect(proc.stderr()).toBe("");
  });

  it("warns about a plain-HTTP URL, which the Event Platform refuses", async () => {
    const proc = await events(["--config", config, "--project", "67", "--url", "http://localhost:8080"]);

    expect(proc.child.exitCode).toBe(0);
    expect(subscriptionSchema.parse(JSON.parse(proc.stdout())).url).toBe("http://localhost:8080/v1/pim-events/67");
    expect(proc.stderr()).toContain("only accepts https URLs");
  });

  it("exits 2 naming pim.events for a project that has none", async () => {
    const proc = await events(["--config", config, "--project", "68", "--url", "https://sync.example.com"]);

    expect(proc.child.exitCode).toBe(2);
    expect(proc.stdout()).toBe("");
    expect(proc.stderr()).toContain("project 68 has no pim.events");
  });

  it("exits 2 for a project that is not configured", async () => {
    const proc = await events(["--config", config, "--project", "99", "--url", "https://sync.example.com"]);

    expect(proc.child.exitCode).toBe(2);
    expect(proc.stderr()).toContain("project 99 is not in");
  });

  it("exits 2 naming --url when it is not a URL, or missing", async () => {
    const bad = await events(["--config", config, "--project", "67", "--url", "not a url"]);
    expect(bad.child.exitCode).toBe(2);
    expect(bad.stdout()).toBe("");
    expect(bad.stderr()).toContain("--url: 'not a url' is not a URL");

    const missing = await events(["--config", config, "--project", "67"]);
    expect(missing.child.exitCode).toBe(2);
    expect(missing.stderr()).toContain("--url");
  });

  it("--help prints the usage and exits 0", async () => {
    const proc = await events(["--help"]);

    expect(proc.child.exitCode).toBe(0);
    expect(proc.stdout()).toContain("Usage: pim-sync events --config FILE --project ID --url BASE_URL");
    expect(proc.stdout()).toContain("never printed");
  });
});
