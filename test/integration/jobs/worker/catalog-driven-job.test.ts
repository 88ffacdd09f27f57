/**
 * The job catalog drives the jobs (issue 17): a job added to the catalog's list (here, a test
 * entry of its own, added to the list the worker runs and nowhere else) is queued through the one
 * enqueue, run by the one processor, summarised in the admin listing and counted in
 * `pim_sync_job_runs_total`; a name the catalog does not have fails clearly. Real Redis, the
 * real worker and queues.
 */
import { describe, expect } from "vitest";
import { z } from "zod";
import { defineJob } from "../../../../src/jobs/catalog/define-job.js";
import type { JobInfrastructure } from "../../../../src/jobs/handlers/job-infrastructure.js";
import { jobCatalogOf } from "../../../../src/jobs/catalog/job-catalog-of.js";
import { createJobAdmin } from "../../../../src/jobs/admin/job-admin.js";
import { JOB_DEFINITIONS, JobDataError } from "../../../../src/jobs/catalog/job-catalog.js";
import { jobOptionsFor } from "../../../../src/jobs/queues/job-options.js";
import { createJobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { startAppWorker } from "../../../support/app-worker.js";
import { UnknownJobName } from "../../../../src/jobs/catalog/unknown-job-name.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { finishedJob, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { test, type Closable, type WorkersFixture } from "../../../support/fixtures.js";

const METRICS_TOKEN = "catalog-test-scrape-token-0123";

const echoJob = defineJob({
  name: "test.echo",
  queue: "project",
  schema: z.strictObject({ project: z.int().positive(), word: z.string().min(1, "must be a word") }),
  attempts: 2,
  backoff: { type: "exponential", delay: 1_000, jitter: 0.5 },
  timeoutMs: () => 10_000,
  summary: (data) => `echo ${typeof data.word === "string" ? data.word : "?"}`,
  async handler(data, context) {
    await context.log(`echoing ${data.word}`);
    return { echoed: data.word, project: context.runtime.project.id };
  },
  metricOutcome: (result) => (result.echoed === "quiet" ? "quiet" : "echoed"),
});

/** A store no other job has: a tally per project, in the worker's Redis under its prefix. */
function createTallyStore(infra: JobInfrastructure): { add(project: number): Promise<number> } {
  tallyStoresBuilt += 1;
  return { add: (project) => infra.redis.incr(infra.keyspace.projectKey(project, "test-tally")) };
}
let tallyStoresBuilt = 0;

/** A job that needs a new store: declared in its own entry, nowhere else (the worker, the binding and the context are unchanged). */
const tallyJob = defineJob({
  name: "test.tally",
  queue: "project",
  schema: z.strictObject({ project: z.int().positive() }),
  attempts: 1,
  backoff: { type: "exponential", delay: 1_000, jitter: 0.5 },
  timeoutMs: () => 10_000,
  summary: () => "tally",
  deps: (infra) => ({ tally: createTallyStore(infra) }),
  async handler(data, context) {
    return { count: await context.deps.tally.add(data.project) };
  },
});

describe("a job added to the catalog's list only", () => {
  let h: WorkerHarness;
  let workers: WorkersFixture;
  let closeAfter: <T extends Closable>(thing: T) => T;

  test.beforeEach(async ({ harness, workers: fixture, closeAfter: closing }) => {
    [h, workers, closeAfter] = [await harness.start(), fixture, closing];
  });

  async function start() {
    const catalog = jobCatalogOf([...JOB_DEFINITIONS, echoJob, tallyJob]);
    // The worker's own metrics, read as a scraper reads them.
    const settings = h.settings({ server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN } });
    const running = workers.keep(await startAppWorker({ settings, logger: silentLogger(), catalog }));
    // The worker's queues are typed by the job catalog's list: these, by this catalog, take its entries' names and data.
    const queues = closeAfter(
      createJobQueues({ connection: h.redis.redis, prefix: h.redis.prefix, projects: [PROJECT], retention: settings.worker, catalog }),
    );
    const scrape = async (): Promise<string> => {
      const answer = await fetch(`${running.serverUrl ?? ""}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(answer.status).toBe(200);
      return answer.text();
    };
    return { running, queues, scrape, admin: createJobAdmin(running.queues, { catalog }), settings };
  }

  test("is queued, processed, summarised and counted through the generic paths", async () => {
    const { queues, scrape, admin } = await start();
    const enqueued = await queues.enqueue("test.echo", { project: PROJECT, word: "hello" });
    expect(enqueued).toMatchObject({ project: PROJECT, status: "queued" });

    const { job, state } = await finishedJob(h.queue(), enqueued.jobId);
    expect(state).toBe("completed");
    expect(job.returnvalue).toEqual({ echoed: "hello", project: PROJECT });
    expect((await h.queue().getJobLogs(enqueued.jobId)).logs).toContain("echoing hello");
    // The entry's attempts and backoff, with the retention every job gets.
    expect(job.opts).toMatchObject({ attempts: 2, backoff: { type: "exponential", delay: 1_000 } });

    const [listed] = await admin.list({ project: PROJECT });
    expect(listed).toMatchObject({ name: "test.echo", state: "completed", summary: "echo hello" });

    const runs = await scrape();
    expect(runs).toContain(`pim_sync_job_runs_total{queue="project",job="test.echo",outcome="echoed"} 1`);
  });

  test("a job that needs a new store gets it from its own entry's deps, built once per worker", async () => {
    tallyStoresBuilt = 0;
    const { queues } = await start();
    const counts: unknown[] = [];
    for (let run = 0; run < 2; run += 1) {
      const enqueued = await queues.enqueue("test.tally", { project: PROJECT });
      const { job, state } = await finishedJob(h.queue(), enqueued.jobId);
      expect(state).toBe("completed");
      counts.push(job.returnvalue);
    }
    expect(counts).toEqual([{ count: 1 }, { count: 2 }]);
    expect(tallyStoresBuilt).toBe(1);
  });

  test("bad data is refused when queued, naming the field, and nothing is queued", async () => {
    const { queues } = await start();
    const attempt = queues.enqueue("test.echo", { project: PROJECT, word: "" });
    await expect(attempt).rejects.toThrow(JobDataError);
    await expect(attempt).rejects.toThrow(/word: must be a word/);
    expect(await h.queue().getJobCountByTypes("waiting", "active", "completed", "failed", "delayed")).toBe(0);
  });

  test("a name the catalog does not have, or of another queue, fails clearly: refused when queued, failed at once when found on a queue", async () => {
    const { running, settings } = await start();
    // Neither compiles (test/unit/jobs/queues/enqueue-types.test.ts); a caller that gets round the types is refused at run time.
    // @ts-expect-error a name the catalog does not have
    await expect(running.queues.enqueue("test.nope", { project: PROJECT })).rejects.toThrow(UnknownJobName);
    // @ts-expect-error an Activation job on a project queue
    await expect(running.queues.enqueue("activation.orders.pull", { connection: "x" })).rejects.toThrow(
      "unknown job name 'activation.orders.pull' on the project queue",
    );

    const options = { ...jobOptionsFor("sync.run", settings.worker), attempts: 3 };
    const unknown = await h.queue().add("test.nope", { project: PROJECT }, options);
    const { job, state } = await finishedJob(h.queue(), unknown.id ?? "");
    expect(state).toBe("failed");
    expect(job.failedReason).toBe("unknown job name 'test.nope' on the project queue");
    // Not retried: a name nobody knows will not be known on the next attempt.
    expect(job.attemptsMade).toBe(1);
  });
});
