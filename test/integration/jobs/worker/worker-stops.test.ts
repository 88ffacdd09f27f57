/**
 * The worker's three stops, over the real Redis and an in-process worker started as the worker
 * command starts it (its stop is what SIGTERM or SIGINT calls): while idle, while a job runs, and
 * a second stop while the first waits for that job. Each close of a BullMQ worker or queue is
 * bounded by the one race of closed-within.ts; none of these stops may reach a bound.
 */
import { connect } from "node:net";
import { describe, expect } from "vitest";
import { finishedJob, HELD_HTTP, PIM_API, PROJECT, type TestWorker, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

/** Whether nothing listens at the worker's HTTP address any more: the stop has released its listener, the first thing it releases. */
function listenerClosed(serverUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(serverUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/** Whether `promise` has settled by the next turn of the event loop. */
function settledYet(promise: Promise<unknown>): Promise<boolean> {
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
}

describe("worker: the three stops", () => {
  let h: WorkerHarness;

  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
  });

  /** A worker whose deadline no held job reaches within the test: a stop waits for its jobs. */
  function startWorker(): Promise<TestWorker> {
    return h.startWorker(
      h.settings({ http: HELD_HTTP, worker: { shutdown_timeout_ms: 60_000 }, server: { host: "127.0.0.1", port: 0 } }),
      "stopping",
    );
  }

  const stoppedLines = () => h.logs.filter((line) => line.msg === "worker stopped");
  const connectionEnded = (worker: TestWorker) =>
    waitFor(() => worker.connection.status === "end", { timeoutMs: 10_000, what: "the worker's Redis connection to end" });

  /**
   * A sync whose PIM reads are held, and the worker's stop begun while it runs (its listener, the
   * first thing released, closed): the stop is still waiting when this returns, and stays so
   * until the gate opens.
   */
  async function stopDuringHeldSync(worker: TestWorker) {
    const gate = h.pim.holdRequests({ path: PIM_API });
    const { jobId } = await h.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    await gate.reached(1, 10_000);
    expect(worker.stoppedProjects()).toEqual([]);
    const stopping = worker.app.stop();
    await waitFor(() => listenerClosed(worker.serverUrl ?? ""), { timeoutMs: 10_000, what: "the worker's listener to close" });
    expect(await settledYet(stopping)).toBe(false);
    return { gate, jobId, stopping };
  }

  /** The job completed, and ended before the one unforced stop did: it was waited for, not cut off. */
  async function expectWaitedFor(jobId: string): Promise<void> {
    const { state, job } = await finishedJob(h.queue(), jobId);
    expect(state).toBe("completed");
    expect(job.returnvalue).toMatchObject({ outcome: "done" });
    expect(stoppedLines()).toMatchObject([{ forced: false }]);
    const done = h.logs.find((line) => line.msg === "job done" && line.job === jobId);
    expect(done?.seq).toBeLessThan(stoppedLines()[0]?.seq ?? -1);
  }

  test("while idle: the stop closes the BullMQ workers, the queues and the connection, unforced", async () => {
    const worker = await startWorker();

    await worker.app.stop();

    expect(stoppedLines()).toMatchObject([{ forced: false }]);
    expect(await listenerClosed(worker.serverUrl ?? "")).toBe(true);
    await connectionEnded(worker);
  });

  test("while a job runs: the stop waits for it to finish, and the job completes", async () => {
    const worker = await startWorker();
    const { gate, jobId, stopping } = await stopDuringHeldSync(worker);

    gate.open();
    await stopping;

    await expectWaitedFor(jobId);
    await connectionEnded(worker);
  });

  test("a second stop during the first: it waits for the first, and the worker is stopped once", async () => {
    const worker = await startWorker();
    const { gate, jobId, stopping: first } = await stopDuringHeldSync(worker);

    const second = worker.app.stop();
    expect(await settledYet(second)).toBe(false);
    gate.open();
    const outcomes = await Promise.allSettled([first, second]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
    await expectWaitedFor(jobId);
    expect(h.logs.filter((line) => line.msg === "could not release a resource; releasing the others")).toEqual([]);
  });
});
