import { describe, expect } from "vitest";
import { optionEventData } from "../../../../sim/pim/pim-event-emitter.js";
import { test } from "../../../support/fixtures.js";
import { assertCliBuilt, servingUrlOf } from "../../../support/process-cli.js";
import { writeTestConfig } from "../../../support/process-config.js";
import { allJobs, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { createTriggerClient } from "../../../support/trigger-client.js";

const PROJECT = 67;
const SECRET = "event-secret-0123456789abcdef";
const TRIGGER_TOKEN = "trigger-token-of-the-write-test";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const WAIT_MS = 60_000;

interface Entry {
  readonly option: string;
  readonly kind: string;
  readonly trigger: string;
}

/** The options one write to the service changed: each is one history entry. */
function optionsWritten(body: unknown): number {
  const write = body as { upsert_options?: unknown[]; delete_options?: unknown[] };
  return (write.upsert_options?.length ?? 0) + (write.delete_options?.length ?? 0);
}

describe("every write the service accepts is in the change history, whatever started the run", () => {
  test("a trigger request, an admin, `sync --once`, PIM events and add-options: as many history entries as options written", async ({
    sims,
    redis,
    tempDir,
    queues,
    cli,
  }) => {
    assertCliBuilt();
    const config = await writeTestConfig(tempDir, {
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      logLevel: "info",
      trigger: { token: TRIGGER_TOKEN },
      server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } },
      projectExtras: {
        pim: {
          url: sims.pim.url,
          client_id: "sim-client",
          secret: "sim-secret",
          username: "sim-user",
          password: "sim-password",
          events: { secret: SECRET, window_ms: 200 },
        },
        allowed_options_for_pim_attribute_addition: ["color"],
      },
    });
    const worker = await cli.startWorker(config);
    let baseUrl = await servingUrlOf(worker);
    const client = createTriggerClient(() => baseUrl);
    const colors = () => sims.pim.state.attribute_options["color"] ?? [];
    const relabel = (code: string, label: string): void => {
      const option = colors().find((candidate) => candidate.code === code);
      if (option) option.labels = { ...option.labels, en_US: label };
    };
    const completed = async (answer: { status: number; json: unknown }): Promise<void> => {
      expect(answer.status).toBe(202);
      const id = (answer.json as { job_id: string }).job_id.split("/")[1] ?? "";
      await waitForJobState(queues, PROJECT, id, "completed", WAIT_MS);
    };

    // 1. A trigger request: the first sync, every option replaced.
    await completed(await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: PROJECT } }));
    // 2. An admin's sync: a relabelled option.
    relabel("red", "Crimson");
    await completed(await client.call(`/admin/api/projects/${PROJECT}/sync`, { token: ADMIN.token, method: "POST", body: {} }));
    // 3. An add-options request: one option added to the service and the PIM.
    await completed(
      await client.call("/v1/add-options", {
        token: TRIGGER_TOKEN,
        body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { "en-US": "Teal" } }] },
      }),
    );
    // 4. PIM events: a deleted option.
    sims.pim.events.configure({ url: `${baseUrl}/v1/pim-events/${PROJECT}`, secret: SECRET });
    sims.pim.state.attribute_options["color"] = colors().filter((option) => option.code !== "white");
    sims.pim.events.emit("attribute-option.deleted", optionEventData("color", "white"));
    await sims.pim.events.idle();
    await waitFor(
      async () => {
        const jobs = (await allJobs(queues, PROJECT)).filter((job) => job.name === "sync.events");
        const states = await Promise.all(jobs.map((job) => job.getState()));
        return jobs.length > 0 && states.every((state) => state === "completed");
      },
      { timeoutMs: WAIT_MS, what: "the targeted sync" },
    );
    // 5. `sync --once` from the command line, with the worker stopped (it holds no project lock then).
    worker.signal("SIGTERM");
    await worker.exited;
    relabel("blue", "Navy");
    const once = cli.spawn(["sync", "--config", config, "--project", String(PROJECT), "--once"]);
    expect((await once.exited).code).toBe(0);

    const restarted = await cli.startWorker(config);
    baseUrl = await servingUrlOf(restarted);
    const answer = await client.call(`/admin/api/projects/${PROJECT}/history?limit=1000`, { token: ADMIN.token });
    expect(answer.status).toBe(200);
    const entries = (answer.json as { entries: Entry[] }).entries;
    const written = Object.values(sims.service.writes())
      .flat()
      .reduce((sum, write) => sum + optionsWritten(write.body), 0);
    expect(written).toBeGreaterThan(0);
    expect(entries).toHaveLength(written);
    expect(new Set(entries.map((entry) => entry.trigger))).toEqual(new Set(["trigger", "admin", "event", "cli"]));
    expect(entries.filter((entry) => entry.trigger === "event").map(({ option, kind }) => [option, kind])).toEqual([["white", "deleted"]]);
    expect(entries.filter((entry) => entry.trigger === "cli").map(({ option, kind }) => [option, kind])).toEqual([["blue", "relabelled"]]);
  });
});
