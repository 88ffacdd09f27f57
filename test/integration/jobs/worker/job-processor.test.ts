/**
 * What every project job keeps however cheap its processing gets (issue 11 §3): every line it
 * logs carries its job, name, project, queue and attempt, secrets redacted; it runs under the
 * project's lock, which a lost lock aborts; data that does not match its schema fails it at once,
 * naming the field. Real Redis, the real worker, handlers replaced to observe from inside a job.
 */
import type { Redis } from "ioredis";
import { describe, expect } from "vitest";
import type { JobContext } from "../../../../src/jobs/handlers/job-context.js";
import type { JobHandlers } from "../../../../src/jobs/catalog/job-handlers.js";
import { jobOptionsFor } from "../../../../src/jobs/queues/job-options.js";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { createProjectLock, ProjectBusy } from "../../../../src/stores/state/project-lock.js";
import type { Settings } from "../../../../src/settings/settings-schema.js";
import { finishedJob, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { isUrgentRequest } from "../../../../src/infra/budgets/request-urgency.js";
import { EMPTY_REDACTOR } from "../../../../src/infra/secrets/redactor.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";

const SECRET = "job-log-secret-0123456789";
const SYNC_DATA = { project: PROJECT, full: false, allow_mass_delete: false, trigger: "cli" } as const;

describe("worker: what every job keeps (log bindings, project lock, data checked)", () => {
  let h: WorkerHarness;
  let worker: AppWorker | undefined;
  let workers: WorkersFixture;
  /** Another connection to the test Redis than the worker's: an outsider to the job's lock. */
  let other: Redis | undefined;
  const lines: string[] = [];

  test.beforeEach(async ({ harness, workers: fixture }) => {
    lines.length = 0;
    h = await harness.start();
    workers = fixture;
  });

  async function start(
    level: string,
    handlers: Partial<JobHandlers>,
  ): Promise<{ readonly settings: Settings; readonly running: AppWorker }> {
    const settings = h.settings();
    const logger = createLogger({ level, redactor: EMPTY_REDACTOR, destination: { write: (line: string) => void lines.push(line) } });
    const noop = () => Promise.resolve(null);
    worker = workers.keep(
      await startAppWorker({ settings, logger, handlers: { "sync.run": noop, "sync.events": noop, "options.add": noop, ...handlers } }),
    );
    return { settings, running: worker };
  }

  const records = (): Record<string, unknown>[] => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const lockKey = (): string => `${h.redis.prefix}:lock:project:${PROJECT}`;

  test.each(["info", "warn"])(
    "at %s, every line of a job (the processor's and its handler's) carries job, jobName, project, queue and attempt; secrets redacted",
    async (level) => {
      const { settings, running } = await start(level, {
        "sync.run": (_data, context: JobContext) => {
          context.logger.info({ token: SECRET }, "handler info");
          context.logger.child({ component: "inner" }).warn({ headers: { authorization: `Bearer ${SECRET}` } }, "handler warn");
          return Promise.resolve(null);
        },
      });
      const job = await running.queues.queueFor(PROJECT).add("sync.run", SYNC_DATA, jobOptionsFor("sync.run", settings.worker));
      expect((await finishedJob(h.queue(), job.id ?? "")).state).toBe("completed");

      const bindings = { job: job.id, jobName: "sync.run", project: PROJECT, queue: queueNameOf(PROJECT), attempt: 1 };
      const ofJob = records().filter(
        (record) => typeof record.msg === "string" && ["job started", "job done", "handler info", "handler warn"].includes(record.msg),
      );
      const expected = level === "info" ? ["job started", "handler info", "handler warn", "job done"] : ["handler warn"];
      expect(ofJob.map((record) => record.msg)).toEqual(expected);
      for (const record of ofJob) expect(record).toMatchObject(bindings);
      expect(lines.join("")).not.toContain(SECRET);
    },
  );

  test("a job runs holding its project's lock (a --once command is refused), and the lock is free once the last job of a run completed", async ({
    redis,
  }) => {
    other = redis.redis;
    const outsider = createProjectLock(other, h.redis.prefix, { ttlMs: 5_000 });
    const seen: { holder: string | null; refused: boolean }[] = [];
    const { settings, running } = await start("warn", {
      async "sync.run"() {
        const holder = await other?.get(lockKey());
        const refused = await outsider.tryAcquire(PROJECT, "sync --once").then(
          (lease) => lease.release().then(() => false),
          (error: unknown) => error instanceof ProjectBusy,
        );
        seen.push({ holder: holder ?? null, refused });
        return null;
      },
    });
    const jobs = await running.queues
      .queueFor(PROJECT)
      .addBulk(Array.from({ length: 5 }, () => ({ name: "sync.run", data: SYNC_DATA, opts: jobOptionsFor("sync.run", settings.worker) })));
    for (const job of jobs) expect((await finishedJob(h.queue(), job.id ?? "")).state).toBe("completed");

    expect(seen).toHaveLength(5);
    for (const run of seen) {
      expect(run.refused).toBe(true);
      expect(run.holder).toMatch(new RegExp(`"holder":"job ${PROJECT}/\\d+ \\(pid ${process.pid} on `));
    }
    await waitFor(async () => (await h.redis.redis.exists(lockKey())) === 0, {
      timeoutMs: 5_000,
      what: "the project lock to be released after the run",
    });
  });

  test("a small job's requests count as urgent at a shared budget, a full sync's do not (request-urgency.ts)", async () => {
    const urgent: Record<string, boolean> = {};
    const observe = (name: string) => async (): Promise<null> => {
      // After an await, as a request deep in a handler would be.
      await Promise.resolve();
      urgent[name] = isUrgentRequest();
      return null;
    };
    const { settings, running } = await start("warn", {
      "sync.run": observe("sync.run"),
      "sync.events": observe("sync.events"),
      "options.add": observe("options.add"),
    });
    const queue = running.queues.queueFor(PROJECT);
    const jobs = [
      await queue.add("sync.run", SYNC_DATA, jobOptionsFor("sync.run", settings.worker)),
      await queue.add("sync.events", { project: PROJECT }, jobOptionsFor("sync.events", settings.worker)),
      await queue.add(
        "options.add",
        { project: PROJECT, attribute: "color", options: [{ name: "red", label: { "en-US": "Red" } }] },
        jobOptionsFor("options.add", settings.worker),
      ),
    ];
    for (const job of jobs) expect((await finishedJob(h.queue(), job.id ?? "")).state).toBe("completed");
    expect(urgent).toEqual({ "sync.run": false, "sync.events": true, "options.add": true });
    expect(isUrgentRequest()).toBe(false);
  });

  test("a job that loses its project's lock is aborted with the reason", async ({ redis }) => {
    other = redis.redis;
    const { settings, running } = await start("warn", {
      async "sync.run"(_data, context) {
        // Another holder takes the lock over: the lease's renewal notices and the job is aborted.
        await other?.set(lockKey(), JSON.stringify({ token: "someone-else", holder: "sync --once of project 67" }));
        await waitFor(() => context.signal.aborted, { timeoutMs: 10_000, what: "the job's signal to abort" });
        throw context.signal.reason instanceof Error ? context.signal.reason : new Error("aborted without a reason");
      },
    });
    const job = await running.queues
      .queueFor(PROJECT)
      .add("sync.run", SYNC_DATA, { ...jobOptionsFor("sync.run", settings.worker), attempts: 1 });
    const failed = await finishedJob(h.queue(), job.id ?? "", 20_000);
    expect(failed.state).toBe("failed");
    expect(failed.job.failedReason).toMatch(/lost the project lock .*another holder took it/);
  });

  test("data that does not match the job's schema fails the job at once, naming the field, without running the handler", async () => {
    let ran = 0;
    const { settings, running } = await start("warn", {
      "sync.run": () => {
        ran += 1;
        return Promise.resolve(null);
      },
    });
    const queue = running.queues.queueFor(PROJECT);
    const bad = await queue.add("sync.run", { ...SYNC_DATA, full: "yes" }, jobOptionsFor("sync.run", settings.worker));
    const failed = await finishedJob(h.queue(), bad.id ?? "");
    expect(failed.state).toBe("failed");
    expect(failed.job.attemptsMade).toBe(1);
    expect(failed.job.failedReason).toMatch(/^invalid sync\.run job data: full: /);
    // A valid job right after it still runs: the failure left the worker (and its slot) usable.
    const good = await queue.add("sync.run", SYNC_DATA, jobOptionsFor("sync.run", settings.worker));
    expect((await finishedJob(h.queue(), good.id ?? "")).state).toBe("completed");
    expect(ran).toBe(1);
  });
});
