import { beforeAll, describe, expect } from "vitest";
import type { RunningSimulators } from "../../../../sim/start-simulators.js";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import type { TestRedis } from "../../../support/redis.js";
import { test, type CliFixture } from "../../../support/fixtures.js";
import { assertCliBuilt, servingUrlOf, waitForExit } from "../../../support/process-cli.js";
import { SIM_CREDENTIALS, writeTestConfig } from "../../../support/process-config.js";
import { allJobs, collectionsOf, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { simPimClient } from "../../../support/sim-pim-client.js";

const PROJECT = 67;
const SECRET = "retry-after-event-secret-0123456789";
const TRIGGER_TOKEN = "retry-after-trigger-token-0123456789";
/** `http.max_retry_after_ms` of the worker: long enough that a request made after the 429 finds the job still delayed, even on a loaded machine. */
const CAP_MS = 25_000;
/** What the proxy answered: come back in a day. */
const A_DAY_S = 86_400;
const WAIT_MS = 60_000;
/** Each test waits out the cap once, after a worker's start and a full sync: more than vitest's default. */
const TEST_TIMEOUT_MS = 180_000;
const LIST_ROUTE = "/api/v1/options_collections/options_collections";

interface Setup {
  readonly sims: RunningSimulators;
  readonly redis: TestRedis;
  readonly queues: JobQueues;
  readonly tempDir: string;
  readonly cli: CliFixture;
}

/** A real worker process (the bundled CLI) on the simulators, project 67 subscribed to PIM events, after one full sync. */
async function startWorker({ sims, redis, queues, tempDir, cli }: Setup): Promise<{ configPath: string; serverUrl: string }> {
  const configPath = await writeTestConfig(tempDir, {
    pimUrl: sims.pim.url,
    serviceUrl: sims.service.url,
    redisPrefix: redis.prefix,
    logLevel: "info",
    server: { port: 0 },
    trigger: { token: TRIGGER_TOKEN },
    http: { max_retry_after_ms: CAP_MS },
    projectExtras: {
      pim: { url: sims.pim.url, ...SIM_CREDENTIALS.pim, events: { secret: "${PIM_EVENTS_SECRET}", window_ms: 300 } },
    },
  });
  const worker = cli.spawn(["worker", "--config", configPath], { env: { PIM_EVENTS_SECRET: SECRET } });
  const serverUrl = await servingUrlOf(worker, WAIT_MS);
  const baseline = await queues.enqueue("sync.run", { project: PROJECT, trigger: "api" });
  await waitForJobState(queues, PROJECT, baseline.jobId, "completed", WAIT_MS);
  sims.pim.events.configure({ url: `${serverUrl}/v1/pim-events/${PROJECT}`, secret: SECRET });
  return { configPath, serverUrl };
}

function pimClient(sims: RunningSimulators) {
  return simPimClient(sims.pim.url);
}

/** The project's job of this name that ran and now waits for its retry. */
async function retryingJob(queues: JobQueues, name: string) {
  return waitFor(
    async () => {
      for (const job of await allJobs(queues, PROJECT)) {
        if (job.name === name && job.attemptsStarted > 0 && (await job.getState()) === "delayed") return job;
      }
      return undefined;
    },
    { timeoutMs: WAIT_MS, intervalMs: 100, what: `a ${name} job waiting for its retry` },
  );
}

const optionsOf = (sims: RunningSimulators, collection: string): string[] =>
  (collectionsOf(sims.service, PROJECT)[collection] ?? []).map((option) => option.name);

/**
 * Issue 35, items 3 and 4: one `429 Retry-After: 86400` from the service delayed the project's
 * job by a day, and every later event and "Sync now" was merged into it. The job's own delay is
 * now capped like the shared pause (`http.max_retry_after_ms`).
 */
describe("a long Retry-After from the service, through a worker process", () => {
  beforeAll(() => assertCliBuilt());

  test(
    "later PIM events are synced within http.max_retry_after_ms of a 429 with Retry-After: 86400",
    async ({ sims, redis, queues, tempDir, cli }) => {
      await startWorker({ sims, redis, queues, tempDir, cli });
      const pim = pimClient(sims);
      // The targeted sync's first service request is refused for a day.
      sims.service.faults.failNext({}, { status: 429, retryAfterSeconds: A_DAY_S });
      await pim.upsertAttributeOptions("color", [{ code: "teal", labels: { en_US: "Teal" } }]);
      const delayed = await retryingJob(queues, "sync.events");
      expect(sims.service.faults.pending()).toBe(0);

      // A change made after the refusal, while the service answers normally again.
      await pim.upsertAttributeOptions("color", [{ code: "mint", labels: { en_US: "Mint" } }]);
      await waitFor(() => ["teal", "mint"].every((option) => optionsOf(sims, "color").includes(option)), {
        timeoutMs: CAP_MS + WAIT_MS,
        what: "teal and mint in the service's color collection (not a day later)",
      });
      await waitForJobState(queues, PROJECT, delayed.id ?? "", "completed", WAIT_MS);
      // Delayed by the cap, not by the day the service asked for.
      const { logs } = await queues.queueFor(PROJECT).getJobLogs(delayed.id ?? "");
      expect(logs).toContainEqual(
        expect.stringMatching(new RegExp(`^delayed \\d+ ms by the upstream \\(it asked for ${A_DAY_S * 1000} ms; capped`)),
      );
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "'Sync now' after a 429 with Retry-After: 86400 answers delayed with the time it runs, jobs list shows it, and the sync runs",
    async ({ sims, redis, queues, tempDir, cli }) => {
      const { configPath, serverUrl } = await startWorker({ sims, redis, queues, tempDir, cli });
      const syncNow = async (): Promise<{ status: number; body: Record<string, unknown>; answeredAt: number }> => {
        const response = await fetch(`${serverUrl}/v1/sync`, {
          method: "POST",
          headers: { authorization: `Bearer ${TRIGGER_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ project: PROJECT }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown>, answeredAt: Date.now() };
      };
      sims.service.faults.failNext({ method: "GET", path: LIST_ROUTE }, { status: 429, retryAfterSeconds: A_DAY_S });
      const first = await syncNow();
      expect(first.status).toBe(202);
      const delayed = await retryingJob(queues, "sync.run");
      expect(first.body.job_id).toBe(`${PROJECT}/${delayed.id ?? ""}`);
      // A change the next sync must carry to the service.
      sims.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 1_000, labels: { en_US: "Teal" } });

      const again = await syncNow();
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({ job_id: first.body.job_id, status: "delayed" });
      const runsAt = Date.parse(String(again.body.runs_at));
      // Within the cap of the refusal, not a day later.
      expect(runsAt).toBeLessThanOrEqual(again.answeredAt + CAP_MS);

      const list = cli.spawn(["jobs", "list", "--config", configPath, "--project", String(PROJECT), "--state", "delayed", "--json"]);
      expect(await waitForExit(list, WAIT_MS), list.stderr()).toEqual({ code: 0, signal: null });
      const listed = (JSON.parse(list.stdout()) as { ref: string; state: string; runs_at: string | null }[]).find(
        (job) => job.ref === first.body.job_id,
      );
      expect(listed).toMatchObject({ state: "delayed", runs_at: new Date(runsAt).toISOString() });

      await waitForJobState(queues, PROJECT, delayed.id ?? "", "completed", CAP_MS + WAIT_MS);
      expect(optionsOf(sims, "color")).toContain("teal");
    },
    TEST_TIMEOUT_MS,
  );
});
