/**
 * The admin surface's route table over real HTTP against the real worker (real Redis,
 * simulators): however a path is spelled, the router's decoded route decides, and only the
 * listed calls pass. Paths are sent byte for byte (node:http), not normalised as fetch would.
 */
import { request as httpRequest } from "node:http";
import { pino, type Logger } from "pino";
import { describe, expect } from "vitest";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { allJobs, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { basicAuth, rawRequest, type RawAnswer, type RawCall } from "../../../support/raw-http.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { test } from "../../../support/fixtures.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";

const PROJECT = 67;
const QUEUE = queueNameOf(PROJECT);
const TRIGGER_TOKEN = "guard-test-trigger-token-0123";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer" } as const;
/** What the reproduction added through the dashboard: a sync allowed to delete everything. */
const MASS_DELETE = { name: "sync.run", data: { project: PROJECT, full: true, trigger: "api", allow_mass_delete: true }, options: {} };
const ADD_DATA = { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] };

describe("the admin route table, however the path is spelled", () => {
  let fixtures: InProcessTestFixtures;

  test.beforeEach(({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
  });

  async function start(logger: Logger = silentLogger()): Promise<{ queues: JobQueues; url: string }> {
    const server = { host: "127.0.0.1", port: 0, admin: { users: [ADMIN, VIEWER] } };
    const worker = await startTestAppWorker(fixtures, { trigger: { token: TRIGGER_TOKEN }, server }, { logger });
    return { queues: fixtures.queues, url: worker.serverUrl ?? "" };
  }

  const as = (url: string, user: { name: string; password: string }, call: RawCall): Promise<RawAnswer> =>
    rawRequest(url, { ...call, headers: { ...basicAuth(user.name, user.password), ...call.headers } });

  /** A job that waits (its queue is paused) and one delayed for an hour, both created a minute ago (past bull-board's 5 s clean grace). */
  async function pausedWithWaitingAndDelayed(jobQueues: JobQueues): Promise<{ waiting: string; delayed: string }> {
    const queue = jobQueues.queueFor(PROJECT);
    await queue.pause();
    const waiting = await queue.add("options.add", ADD_DATA, { timestamp: Date.now() - 60_000 });
    const delayed = await queue.add("options.add", ADD_DATA, { timestamp: Date.now() - 60_000, delay: 3_600_000 });
    return { waiting: waiting.id ?? "", delayed: delayed.id ?? "" };
  }

  test("POST .../add is refused (403) in every spelling an admin can think of, and no job is ever added", async () => {
    const { queues: jobQueues, url } = await start();
    // The reproduction first: the allow-rule once compared the raw URL, the router the decoded one.
    const reproduced = await as(url, ADMIN, { method: "POST", path: `/admin/api/%71ueues/${QUEUE}/add`, body: MASS_DELETE });
    expect(reproduced.status, reproduced.text).toBe(403);
    expect(await allJobs(jobQueues, PROJECT)).toEqual([]);
    const insideAdmin = [
      `/admin/api/queues/${QUEUE}/add`,
      `/admin/api/%71ueues/${QUEUE}/add`,
      `/admin/api/%71%75%65%75%65%73/${QUEUE}/add`,
      `/admin/%61pi/queues/${QUEUE}/add`,
      `/%61dmin/api/queues/${QUEUE}/add`,
      `/admin/api/queues/project%2D67/add`,
      `/admin/api/queues/${QUEUE}/%61dd`,
      `/admin/api/queues/${QUEUE}%2Fadd`,
      `/admin/api/queues/${QUEUE}%2fadd`,
      `/admin/api%2Fqueues/${QUEUE}/add`,
      `/admin/api/queues/${QUEUE}/add/`,
      `/admin/api/queues/${QUEUE}/add//`,
      `/admin//api/queues/${QUEUE}/add`,
      `/admin/api/queues//${QUEUE}/add`,
      `/admin/api/queues/${QUEUE}//add`,
      `/admin/api/queues/${QUEUE}/./add`,
      `/admin/api/queues/x/../${QUEUE}/add`,
      `/admin/api/queues/${QUEUE}/%2e/add`,
      `/admin/api/queues/${QUEUE}/add;x`,
      `/admin/api/queues/${QUEUE}/add?x=1`,
      `/admin/api/queues/${QUEUE}/add%00`,
      `/admin/api/queues/${QUEUE}/add%20`,
      `/admin/api/Queues/${QUEUE}/add`,
      `/admin/API/queues/${QUEUE}/add`,
      `/admin/api/queues/PROJECT-67/add`,
      `/admin/api/queues/${QUEUE}/ADD`,
    ];
    for (const path of insideAdmin) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const answer = await as(url, ADMIN, { method, path, body: MASS_DELETE });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
      }
    }
    // Outside the /admin prefix no route matches at all: 404, and nothing runs.
    for (const path of [`//admin/api/queues/${QUEUE}/add`, `/Admin/api/queues/${QUEUE}/add`, `/ADMIN/api/queues/${QUEUE}/add`]) {
      const answer = await as(url, ADMIN, { method: "POST", path, body: MASS_DELETE });
      expect(answer.status, `POST ${path}: ${answer.text}`).toBe(404);
    }
    expect(await allJobs(jobQueues, PROJECT)).toEqual([]);
  });

  test("clean/wait, clean/delayed and every other removal of unfinished jobs are refused (403), in any spelling; the jobs stay", async () => {
    const { queues: jobQueues, url } = await start();
    const { waiting, delayed } = await pausedWithWaitingAndDelayed(jobQueues);
    const refused: [string, string, unknown?][] = [
      ["PUT", `/admin/api/queues/${QUEUE}/clean/wait`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/%77ait`],
      ["PUT", `/admin/api/%71ueues/${QUEUE}/clean/wait`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/wait;x`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/wait%3Fx`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/wait/`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean//wait`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/WAIT`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/paused`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/active`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/prioritized`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/delayed`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/%64elayed`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/completed%2F..%2Fwait`],
      ["PUT", `/admin/api/queues/${QUEUE}/${waiting}/clean`],
      ["PUT", `/admin/api/queues/${QUEUE}/${delayed}/clean`],
      ["PUT", `/admin/api/queues/${QUEUE}/empty`],
      ["PUT", `/admin/api/queues/${QUEUE}/obliterate`, { force: true }],
      ["PUT", `/admin/api/queues/${QUEUE}/resume`],
      ["PUT", `/admin/api/queues/resume`],
      ["PUT", `/admin/api/queues/${QUEUE}/${waiting}/remove-unprocessed-children`],
      ["PATCH", `/admin/api/queues/${QUEUE}/${waiting}/update-data`, { data: MASS_DELETE.data }],
      ["PATCH", `/admin/api/queues/${QUEUE}/${delayed}/delay`, { delay: 0 }],
      ["PATCH", `/admin/api/queues/${QUEUE}/${waiting}/priority`, { priority: 1 }],
    ];
    for (const [method, path, body] of refused) {
      const answer = await as(url, ADMIN, { method, path, body });
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
    }
    const queue = jobQueues.queueFor(PROJECT);
    expect(await queue.getJobState(waiting)).toBe("waiting");
    expect(await queue.getJobState(delayed)).toBe("delayed");
    expect((await queue.getJob(waiting))?.data).toEqual(ADD_DATA);
    expect(await queue.isPaused()).toBe(true);
  });

  test("an admin may clean completed and failed jobs, retry failed ones and promote delayed ones; not retry completed ones, pause, add schedules or change queue settings", async () => {
    const { queues: jobQueues, url } = await start();
    const queue = jobQueues.queueFor(PROJECT);
    // A job that fails at once: its attribute is not in the project's allowlist.
    const failed = await jobQueues.enqueue("options.add", ADD_DATA);
    await waitForJobState(jobQueues, PROJECT, failed.jobId, "failed", 30_000);
    const completed = await jobQueues.enqueue("sync.run", { project: PROJECT, trigger: "api" });
    await waitForJobState(jobQueues, PROJECT, completed.jobId, "completed", 30_000);

    for (const [method, path, body] of [
      ["PUT", `/admin/api/queues/${QUEUE}/retry/completed`],
      ["PUT", `/admin/api/queues/${QUEUE}/retry/%63ompleted`],
      ["PUT", `/admin/api/queues/${QUEUE}/${completed.jobId}/retry`],
      ["PUT", `/admin/api/queues/${QUEUE}/pause`],
      ["PUT", `/admin/api/queues/pause`],
      ["PUT", `/admin/api/queues/${QUEUE}/concurrency`, { concurrency: 5 }],
      ["PUT", `/admin/api/queues/${QUEUE}/rate-limit`, { max: 1, duration: 1000 }],
      ["PUT", `/admin/api/queues/${QUEUE}/rate-limit/release`],
      ["PUT", `/admin/api/queues/${QUEUE}/job-schedulers/any/run`],
      ["PUT", `/admin/api/queues/${QUEUE}/job-schedulers/any/remove`],
      ["PATCH", `/admin/api/queues/${QUEUE}/job-schedulers/any`, { pattern: "* * * * *" }],
      ["PUT", `/admin/api/queues/project-5/clean/completed`],
    ] as [string, string, unknown?][]) {
      const answer = await as(url, ADMIN, { method, path, body });
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
    }
    expect(await queue.getJobState(completed.jobId)).toBe("completed");
    expect(await queue.isPaused()).toBe(false);

    const retried = await as(url, ADMIN, { method: "PUT", path: `/admin/api/queues/${QUEUE}/retry/failed` });
    expect(retried.status, retried.text).toBe(200);
    expect(JSON.parse(retried.text)).toMatchObject({ retried: 1 });
    await waitForJobState(jobQueues, PROJECT, failed.jobId, "failed", 30_000);
    expect((await queue.getJob(failed.jobId))?.attemptsStarted).toBeGreaterThan(1);
    for (const path of [
      `/admin/api/queues/${QUEUE}/clean/completed`,
      `/admin/api/queues/${QUEUE}/clean/failed`,
      `/admin/api/%71ueues/${QUEUE}/clean/%66ailed`,
      `/admin/api/queues/${QUEUE}/promote`,
    ]) {
      const answer = await as(url, ADMIN, { method: "PUT", path });
      expect(answer.status, `PUT ${path}: ${answer.text}`).toBe(200);
    }
    const single = await as(url, ADMIN, { method: "PUT", path: `/admin/api/queues/${QUEUE}/${failed.jobId}/retry` });
    expect(single.status, single.text).toBeLessThan(300);
  });

  test("promoting a job that is not delayed is refused (403, saying so), never a 500; a delayed one is promoted", async () => {
    const { queues: jobQueues, url } = await start();
    const { waiting, delayed } = await pausedWithWaitingAndDelayed(jobQueues);
    const refused = await as(url, ADMIN, { method: "PUT", path: `/admin/api/queues/${QUEUE}/${waiting}/promote` });
    expect(refused.status, refused.text).toBe(403);
    expect(JSON.parse(refused.text)).toEqual({
      error: `job ${PROJECT}/${waiting} is waiting: the dashboard does this to delayed jobs only`,
    });
    const promoted = await as(url, ADMIN, { method: "PUT", path: `/admin/api/queues/${QUEUE}/${delayed}/promote` });
    expect(promoted.status, promoted.text).toBeLessThan(300);
    const queue = jobQueues.queueFor(PROJECT);
    expect(await queue.getJobState(waiting)).toBe("waiting");
    expect(await queue.getJobState(delayed)).toBe("waiting");
  });

  test("a job that stops being delayed between the check and bull-board's promote is answered 403 too, not 500", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const { queues: jobQueues, url } = await start(logger);
    const { delayed } = await pausedWithWaitingAndDelayed(jobQueues);
    const target = new URL(url);
    // The headers now, the body later: the route table's checks (the job's state among them) run
    // on the headers, bull-board once the body is in. The job leaves the delayed state in between.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: "PUT",
          path: `/admin/api/queues/${QUEUE}/${delayed}/promote`,
          agent: false,
          headers: { ...basicAuth(ADMIN.name, ADMIN.password), "content-type": "application/json", "content-length": "2" },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        },
      );
      outgoing.on("error", reject);
      outgoing.flushHeaders();
      void waitFor(() => lines.some((line) => line.msg === "admin action"), { timeoutMs: 10_000, what: "the admin checks to pass" }).then(
        async () => {
          await (await jobQueues.queueFor(PROJECT).getJob(delayed))?.promote();
          outgoing.end("{}");
        },
        reject,
      );
    });
    const { status, text } = await answer;
    expect(status, text).toBe(403);
    expect(JSON.parse(text)).toEqual({ error: `job ${PROJECT}/${delayed} is waiting: the dashboard does this to delayed jobs only` });
  });

  test("a viewer is refused every state-changing call, the ones an admin may make included, and nothing changes", async () => {
    const { queues: jobQueues, url } = await start();
    const failed = await jobQueues.enqueue("options.add", ADD_DATA);
    await waitForJobState(jobQueues, PROJECT, failed.jobId, "failed", 30_000);
    const { waiting, delayed } = await pausedWithWaitingAndDelayed(jobQueues);
    const calls: [string, string, unknown?][] = [
      ["PUT", `/admin/api/queues/${QUEUE}/retry/failed`],
      ["PUT", `/admin/api/queues/${QUEUE}/${failed.jobId}/retry`],
      ["PUT", `/admin/api/queues/${QUEUE}/promote`],
      ["PUT", `/admin/api/queues/${QUEUE}/${delayed}/promote`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/completed`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/failed`],
      ["PUT", `/admin/api/queues/${QUEUE}/clean/wait`],
      ["PUT", `/admin/api/queues/${QUEUE}/${waiting}/clean`],
      ["POST", `/admin/api/queues/${QUEUE}/add`, MASS_DELETE],
      ["POST", `/admin/api/%71ueues/${QUEUE}/add`, MASS_DELETE],
      ["PUT", `/admin/api/queues/${QUEUE}/resume`],
      ["PUT", `/admin/api/queues/${QUEUE}/obliterate`, { force: true }],
      ["PUT", `/admin/api/queues/${QUEUE}/empty`],
      ["PATCH", `/admin/api/queues/${QUEUE}/${waiting}/update-data`, { data: MASS_DELETE.data }],
      ["POST", `/admin/api/jobs/${PROJECT}/${failed.jobId}/retry`],
      ["POST", `/admin/api/jobs/retry-failed`],
      ["POST", `/admin/api/projects/${PROJECT}/sync`, { full: true }],
      ["POST", `/admin/api/nothing-here`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await as(url, VIEWER, { method, path, body });
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
    }
    const queue = jobQueues.queueFor(PROJECT);
    expect(await queue.getJobState(failed.jobId)).toBe("failed");
    expect((await queue.getJob(failed.jobId))?.attemptsStarted).toBe(1);
    expect(await queue.getJobState(waiting)).toBe("waiting");
    expect(await queue.getJobState(delayed)).toBe("delayed");
    expect(await queue.isPaused()).toBe(true);
    expect((await allJobs(jobQueues, PROJECT)).map((job) => job.id).sort()).toEqual([failed.jobId, waiting, delayed].sort());
    // Reads still work for a viewer, through the same table.
    expect((await as(url, VIEWER, { path: "/admin/api/queues" })).status).toBe(200);
    expect((await as(url, VIEWER, { path: `/admin/api/queues/${QUEUE}/${failed.jobId}` })).status).toBe(200);
  });
});
