/* eslint-disable no-empty-pattern -- vitest reads which fixtures a fixture needs from its first parameter's destructuring: `{}` says none. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import { z } from "zod";
import { SUBSCRIBED_EVENT_TYPES } from "../../../src/features/events/pim-event.js";
import { startEventPlatformSimulator, type EventPlatformSimulator } from "../../../sim/event-platform/event-platform-simulator.js";
import { test } from "../../support/fixtures.js";
import { assertCliBuilt, servingUrlOf, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { SIM_CREDENTIALS, SIM_SECRETS, testConfigObject } from "../../support/process-config.js";
import { startScriptedServer, type ScriptedServer } from "../../support/scripted-http-server.js";
import { leakedSecrets } from "../../support/secret-leaks.js";

const SECRET = "primary-events-secret-7d2e91c4a0";
const SECONDARY = "secondary-events-secret-3b8f05";
const EXIT_MS = 60_000;
const ENV = { PIM_EVENTS_SECRET: SECRET, PIM_EVENTS_SECONDARY: SECONDARY };

/** What `events --create` prints: strict, so a field added (a secret, a token) fails here. */
const createdSchema = z.strictObject({
  subscriber_id: z.string().min(1),
  subscriber_created: z.boolean(),
  subscription_id: z.string().min(1),
  status: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  subject: z.string(),
});

interface Setup {
  readonly platform: EventPlatformSimulator;
  readonly dir: string;
}

/** The Event Platform simulator and a temporary folder, closed and removed after each test. */
const it = test.extend<{ setup: Setup }>({
  setup: async ({}, use) => {
    const platform = await startEventPlatformSimulator();
    const dir = await mkdtemp(join(tmpdir(), "pim-sync-events-create-"));
    try {
      await use({ platform, dir });
    } finally {
      await platform.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
});

describe("pim-sync events --create: the subscription made through the Event Platform's API", () => {
  beforeAll(() => assertCliBuilt());

  /** Projects 67 and 68 of one PIM connection, both subscribed; the platform at `platformUrl`. */
  async function writeConfig(
    setup: Setup,
    pimUrl: string,
    options: { readonly redisPrefix?: string | null; readonly platformUrl?: string; readonly secondary?: boolean } = {},
  ): Promise<string> {
    const object = testConfigObject({
      pimUrl,
      serviceUrl: "http://127.0.0.1:9/service",
      redisPrefix: options.redisPrefix ?? null,
      stateDir: join(setup.dir, "state"),
      logLevel: "info",
      server: { port: 0 },
    });
    const [project] = object.projects as Record<string, unknown>[];
    const events = {
      secret: "${PIM_EVENTS_SECRET}",
      ...(options.secondary === false ? {} : { secondary_secret: "${PIM_EVENTS_SECONDARY}" }),
    };
    const pim = { url: pimUrl, ...SIM_CREDENTIALS.pim, events };
    const config = join(setup.dir, "config.json");
    await writeFile(
      config,
      JSON.stringify({
        ...object,
        event_platform: { url: options.platformUrl ?? setup.platform.apiUrl },
        projects: [
          { ...project, pim },
          { ...project, id: 68, pim },
        ],
      }),
    );
    return config;
  }

  /** Every secret the run knew: the config's, the subscription's, and the PIM tokens the platform received. */
  function secretsOf(setup: Setup): string[] {
    return [...SIM_SECRETS, SECRET, SECONDARY, ...setup.platform.subscriptions().map((subscription) => subscription.received_token)];
  }

  function expectNoLeak(proc: CliProcess, setup: Setup): void {
    expect(leakedSecrets(proc.stdout() + proc.stderr(), secretsOf(setup))).toEqual([]);
  }

  it("creates a subscriber and a subscription to the worker's receiver, then reuses the subscriber for another project", async ({
    setup,
    sims,
    redis,
    cli,
  }) => {
    const config = await writeConfig(setup, sims.pim.url, { redisPrefix: redis.prefix });
    const worker = cli.spawn(["worker", "--config", config], { env: ENV });
    const base = await servingUrlOf(worker, EXIT_MS);

    const first = cli.spawn(
      ["events", "--config", config, "--project", "67", "--url", base, "--create", "--technical-email", "ops@example.com"],
      { env: ENV },
    );
    await waitForExit(first, EXIT_MS);
    expect(first.child.exitCode, first.stderr()).toBe(0);
    const created = createdSchema.parse(JSON.parse(first.stdout()));
    expect(created).toMatchObject({
      subscriber_created: true,
      url: `${base}/v1/pim-events/67`,
      subject: sims.pim.url,
      events: SUBSCRIBED_EVENT_TYPES,
    });
    expect(first.stderr()).toContain("within a few minutes");

    // What the platform got: the subscriber of this PIM and connection, and the subscription's events, URL and secrets.
    const [subscriber] = setup.platform.subscribers();
    expect(subscriber).toMatchObject({
      id: created.subscriber_id,
      subject: sims.pim.url,
      client_id: SIM_CREDENTIALS.pim.client_id,
      contact: { technical_email: "ops@example.com" },
    });
    const [subscription] = setup.platform.subscriptions();
    expect(subscription).toMatchObject({
      id: created.subscription_id,
      subscriber_id: created.subscriber_id,
      source: "pim",
      subject: sims.pim.url,
      type: "https",
      events: SUBSCRIBED_EVENT_TYPES,
      config: { url: `${base}/v1/pim-events/67`, secret: { primary: SECRET, secondary: SECONDARY } },
    });
    expect(created.status).toBe(subscription?.status);
    // The token came from the PIM: the simulator's token endpoint was asked once.
    expect(sims.pim.requests.filter((request) => request.path === "/api/oauth/v1/token")).toHaveLength(1);
    expect(subscription?.received_token).not.toBe("");
    expectNoLeak(first, setup);

    const second = cli.spawn(
      ["events", "--config", config, "--project", "68", "--url", base, "--create", "--subscriber", created.subscriber_id],
      { env: ENV },
    );
    await waitForExit(second, EXIT_MS);
    expect(second.child.exitCode, second.stderr()).toBe(0);
    const reused = createdSchema.parse(JSON.parse(second.stdout()));
    expect(reused).toMatchObject({ subscriber_id: created.subscriber_id, subscriber_created: false, url: `${base}/v1/pim-events/68` });
    expect(setup.platform.subscribers()).toHaveLength(1);
    expect(setup.platform.subscriptions().map((made) => [made.subscriber_id, made.config.url])).toEqual([
      [created.subscriber_id, `${base}/v1/pim-events/67`],
      [created.subscriber_id, `${base}/v1/pim-events/68`],
    ]);
    expectNoLeak(second, setup);
  });

  it("sends no secondary secret when none is configured", async ({ setup, sims, cli }) => {
    const receiver = await startScriptedServer(() => ({ status: 200, json: {} }));
    try {
      const config = await writeConfig(setup, sims.pim.url, { secondary: false });
      const proc = cli.spawn(
        ["events", "--config", config, "--project", "67", "--url", receiver.origin, "--create", "--technical-email", "ops@example.com"],
        { env: ENV },
      );
      await waitForExit(proc, EXIT_MS);
      expect(proc.child.exitCode, proc.stderr()).toBe(0);
      expect(setup.platform.subscriptions().map((made) => made.config.secret)).toEqual([{ primary: SECRET }]);
      expect(receiver.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["HEAD /v1/pim-events/67"]);
      expectNoLeak(proc, setup);
    } finally {
      await receiver.close();
    }
  });

  it("exits 1 with the platform's reason when the receiver answers 404 to HEAD, and shows neither secret nor token", async ({
    setup,
    sims,
    cli,
  }) => {
    const receiver: ScriptedServer = await startScriptedServer(() => ({ status: 404, json: { message: "no such route" } }));
    try {
      const config = await writeConfig(setup, sims.pim.url);
      const proc = cli.spawn(["events", "--config", config, "--project", "67", "--url", receiver.origin, "--subscriber", "x", "--create"], {
        env: ENV,
      });
      await waitForExit(proc, EXIT_MS);
      // An unknown subscriber first: 404 from the platform, exit 1.
      expect(proc.child.exitCode).toBe(1);
      expect(proc.stderr()).toContain("404");

      const refused = cli.spawn(
        ["events", "--config", config, "--project", "67", "--url", receiver.origin, "--create", "--technical-email", "ops@example.com"],
        { env: ENV },
      );
      await waitForExit(refused, EXIT_MS);
      expect(refused.child.exitCode).toBe(1);
      expect(refused.stdout()).toBe("");
      expect(refused.stderr()).toContain("answered 404, not 200");
      expect(refused.stderr()).toContain("creating the subscription");
      // The subscriber was made: the operator is told which one to reuse.
      const [subscriber] = setup.platform.subscribers();
      expect(refused.stderr()).toContain(`--subscriber ${subscriber?.id ?? "?"}`);
      expect(setup.platform.subscriptions()).toEqual([]);
      // The simulator echoed the request, secrets included, in its refusal: none of it reached the output.
      const refusal = setup.platform.requests.filter((request) => request.status === 400);
      expect(refusal).toHaveLength(1);
      expect(
        leakedSecrets(proc.stdout() + proc.stderr() + refused.stdout() + refused.stderr(), [...SIM_SECRETS, SECRET, SECONDARY]),
      ).toEqual([]);
      expect(refused.stderr()).toContain("[redacted]");
    } finally {
      await receiver.close();
    }
  });

  it("exits 2 naming what is missing or wrong, and sends nothing anywhere", async ({ setup, sims, cli }) => {
    const config = await writeConfig(setup, sims.pim.url);
    const runs: { args: string[]; says: string; configPath?: string }[] = [
      { args: ["--create"], says: "--create needs --technical-email EMAIL" },
      { args: ["--create", "--technical-email", "ops@example.com", "--subscriber", "abc"], says: "not both" },
      { args: ["--create", "--technical-email", "not-an-email"], says: "--technical-email: 'not-an-email' is not an email address" },
      { args: ["--subscriber", "abc"], says: "--subscriber goes with --create" },
    ];
    for (const run of runs) {
      const proc = cli.spawn(["events", "--config", config, "--project", "67", "--url", "https://sync.example.com", ...run.args], {
        env: ENV,
      });
      await waitForExit(proc, EXIT_MS);
      expect(proc.child.exitCode, run.args.join(" ")).toBe(2);
      expect(proc.stdout()).toBe("");
      expect(proc.stderr()).toContain(run.says);
    }

    // A plain-HTTP platform URL off the machine: the config is refused, naming the key.
    const plain = await writeConfig(setup, sims.pim.url, { platformUrl: "http://event.example.com/api/v1" });
    const proc = cli.spawn(
      [
        "events",
        "--config",
        plain,
        "--project",
        "67",
        "--url",
        "https://sync.example.com",
        "--create",
        "--technical-email",
        "ops@example.com",
      ],
      { env: ENV },
    );
    await waitForExit(proc, EXIT_MS);
    expect(proc.child.exitCode).toBe(2);
    expect(proc.stderr()).toContain("event_platform.url");
    expect(proc.stderr()).toContain("https");

    // Not even a token was asked for.
    expect(sims.pim.requests).toEqual([]);
    expect(setup.platform.requests).toEqual([]);
  });

  it("--help explains both ways and that activation takes minutes", async ({ cli }) => {
    const proc = cli.spawn(["events", "--help"]);
    await waitForExit(proc, EXIT_MS);
    expect(proc.child.exitCode).toBe(0);
    for (const text of [
      "--create",
      "--technical-email EMAIL",
      "--subscriber ID",
      "Nothing is sent anywhere",
      "within a few minutes",
      "never a secret or the",
    ]) {
      expect(proc.stdout()).toContain(text);
    }
  });
});
