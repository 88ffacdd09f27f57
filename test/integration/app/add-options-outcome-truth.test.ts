import { describe, expect } from "vitest";
import { servingUrlOf, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { SIM_CREDENTIALS } from "../../support/process-config.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { createTriggerClient } from "../../support/trigger-client.js";
import { test } from "../../support/fixtures.js";
import { writeWorkerConfig, type ProcessTestFixtures } from "../../support/worker-process.js";

const PROJECT = 67;
const TOKEN = "trigger-token-of-the-outcome-test";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
/** The simulator's material collections, in the order a run writes them (locales sorted). */
const MATERIAL = [
  { id: 8, name: "material-de_DE" },
  { id: 6, name: "material-en_US" },
  { id: 7, name: "material-fr_FR" },
] as const;

interface JobAnswer {
  readonly state: string;
  readonly result: {
    readonly status: string;
    readonly collections: readonly { collection: string; added: string[]; skipped: string[] }[];
  } | null;
}

describe("pim-sync worker as a process: an add-options request's outcome lists what it added, whichever run or attempt added it", () => {
  let fixtures: ProcessTestFixtures;
  let configPath: string;

  test.beforeEach(async ({ sims, redis, queues, tempDir, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    configPath = await writeWorkerConfig(fixtures, {
      trigger: { token: TOKEN },
      server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color", "material"] },
    });
  });

  const expectEveryMaterialCollectionToHoldOnly = (option: string): void => {
    for (const { name } of MATERIAL)
      expect(
        fixtures.sims.service
          .collections()
          .find((c) => c.name === name)
          ?.options.map((o) => o.name),
      ).toEqual([option]);
  };

  async function stopsCleanly(worker: CliProcess): Promise<void> {
    worker.signal("SIGTERM");
    expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
  }

  /** A worker process with its HTTP listener on a port of its own (bound as 0, read from its log). */
  async function startWorker(): Promise<{ worker: CliProcess; url: string }> {
    const worker = fixtures.cli.spawn(["worker", "--config", configPath]);
    return { worker, url: await servingUrlOf(worker) };
  }

  async function jobAnswer(url: string, ref: string): Promise<JobAnswer> {
    const answer = await createTriggerClient(() => url).call(`/v1/jobs/${ref}`, { token: TOKEN });
    expect(answer.status).toBe(200);
    return answer.json as JobAnswer;
  }

  const addOptionsSent = (collectionId: number): string[] =>
    (fixtures.sims.service.writes()[collectionId] ?? [])
      .filter((w) => w.kind === "add-options")
      .flatMap((w) => (w.body as { upsert_options: { name: string }[] }).upsert_options.map((o) => o.name));

  /** An update-options call straight to the service simulator, as another writer would make it. */
  async function serviceUpdate(collectionId: number, body: Readonly<Record<string, unknown>>): Promise<void> {
    const response = await fetch(`${fixtures.sims.service.url}/api/v1/options_collections/${collectionId}/update-options/`, {
      method: "PATCH",
      headers: { authorization: `Token ${SIM_CREDENTIALS.serviceToken}`, "content-type": "application/json" },
      body: JSON.stringify({ upsert_options: [], delete_options: [], delete_all: false, ...body }),
    });
    expect(response.status).toBe(200);
  }

  test("a worker SIGKILLed after the service accepted the write: the worker that finishes the job reports the option added", async () => {
    // Once the service has the option, the PIM answers slowly: the run stays between the
    // accepted write (and its state update) and its end until it is killed.
    const stopWatching = fixtures.sims.service.onWrite((collection, write) => {
      if (collection.name === "color" && write.kind === "add-options") fixtures.sims.pim.setLatencyMs(120_000);
    });
    const a = await startWorker();
    const queued = await createTriggerClient(() => a.url).call("/v1/add-options", {
      token: TOKEN,
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    expect(queued.status).toBe(202);
    const ref = (queued.json as { job_id: string }).job_id;
    const jobId = ref.split("/")[1] ?? "";

    // The run recorded the addition in Redis, so a later run finds `teal` known to the collection.
    const addedKey = `${fixtures.redis.prefix}:state:${PROJECT}:a:color`;
    await waitFor(async () => (await fixtures.redis.redis.hexists(addedKey, "teal")) === 1, {
      timeoutMs: 30_000,
      what: "the run to record teal as added",
    });
    a.worker.signal("SIGKILL");
    expect(await waitForExit(a.worker, 10_000)).toEqual({ code: null, signal: "SIGKILL" });
    expect(await fixtures.queues.queueFor(PROJECT).getJobState(jobId)).toBe("active");
    stopWatching();
    fixtures.sims.pim.setLatencyMs(0);

    const b = await startWorker();
    const done = await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 60_000);
    expect(done.stalledCounter).toBeGreaterThanOrEqual(1);

    const answer = await jobAnswer(b.url, ref);
    expect(answer.state).toBe("completed");
    expect(answer.result).toMatchObject({ status: "added", collections: [{ collection: "color", added: ["teal"], skipped: [] }] });
    // Added once: the second run wrote nothing.
    expect(addOptionsSent(5)).toEqual(["teal"]);
    const shown = fixtures.cli.spawn(["jobs", "show", ref, "--config", configPath]);
    expect(await waitForExit(shown, 30_000)).toEqual({ code: 0, signal: null });
    expect(shown.stdout()).toMatch(/^outcome: added: 1 added, 0 already present/m);
    await stopsCleanly(b.worker);
  });

  test("a request refused for one collection after its other collections were written, then replayed: every collection lists the option added", async () => {
    // Another writer put `silk` into the last material collection: add-options there is refused.
    const [first, second, last] = MATERIAL;
    await serviceUpdate(last.id, { upsert_options: [{ name: "silk", label: { "en-US": "Silk" } }] });
    const { worker, url } = await startWorker();
    const client = createTriggerClient(() => url);
    const queued = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { project: PROJECT, attribute: "material", options: [{ name: "silk", label: { en_US: "Silk" } }] },
    });
    expect(queued.status).toBe(202);
    const ref = (queued.json as { job_id: string }).job_id;
    const jobId = ref.split("/")[1] ?? "";

    const failed = await waitForJobState(fixtures.queues, PROJECT, jobId, "failed", 60_000);
    expect(failed.failedReason).toMatch(/the service refused add-options of silk for 'material-fr_FR'/);
    // The first attempt wrote the two collections before the refused one (a refused call is no write).
    expect([first.id, second.id, last.id].map(addOptionsSent)).toEqual([["silk"], ["silk"], []]);

    // The other writer's option goes; the request is replayed through the admin API.
    await serviceUpdate(last.id, { delete_options: ["silk"] });
    const retried = await client.call(`/admin/api/jobs/${ref}/retry`, { token: ADMIN.token, method: "POST" });
    expect(retried).toMatchObject({ status: 200, json: { outcome: "retried" } });
    await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 60_000);

    const answer = await jobAnswer(url, ref);
    expect(answer.result?.status).toBe("added");
    expect(answer.result?.collections).toEqual(MATERIAL.map(({ name }) => ({ collection: name, added: ["silk"], skipped: [] })));
    expectEveryMaterialCollectionToHoldOnly("silk");
    await stopsCleanly(worker);
  });

  test("a first attempt that failed after some of its writes (a 503 on the last collection), retried by BullMQ: the outcome lists every collection's addition", async () => {
    const [, , last] = MATERIAL;
    fixtures.sims.service.faults.failNext(
      { method: "PATCH", path: `/api/v1/options_collections/${last.id}/add-options/` },
      { status: 503, times: 1 },
    );
    const { worker, url } = await startWorker();
    const queued = await createTriggerClient(() => url).call("/v1/add-options", {
      token: TOKEN,
      body: { project: PROJECT, attribute: "material", options: [{ name: "tweed", label: { en_US: "Tweed" } }] },
    });
    expect(queued.status).toBe(202);
    const ref = (queued.json as { job_id: string }).job_id;
    const jobId = ref.split("/")[1] ?? "";

    // Backoff of the catalog (from 10 s, jitter 50%): the retry comes within 10 s.
    const done = await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 90_000);

    expect(done.attemptsMade).toBeGreaterThanOrEqual(2);
    const answer = await jobAnswer(url, ref);
    expect(answer.result?.status).toBe("added");
    expect(answer.result?.collections).toEqual(MATERIAL.map(({ name }) => ({ collection: name, added: ["tweed"], skipped: [] })));
    // Nothing sent twice: the retry found tweed in the PIM (the first add-options created it
    // there), so the last collection got it through update-options.
    expect(MATERIAL.map(({ id }) => addOptionsSent(id))).toEqual([["tweed"], ["tweed"], []]);
    expectEveryMaterialCollectionToHoldOnly("tweed");
    await stopsCleanly(worker);
  });
});
