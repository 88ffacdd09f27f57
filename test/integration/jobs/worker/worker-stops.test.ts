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
  const seqOf = (msg: string, job: string) => h.logs.find((line) => line.msg === msg && line.job === job)?.seq;

  /** A sync whose PIM reads are held: it is running, and stays so until the gate opens. */
  async function heldSync(worker: TestWorker) {
    const gate = h.pim.holdRequests({ path: PIM_API });
    const { jobId } = await h.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    await gate.reached(1, 10_000);
    expect(worker.stoppedProjects()).toEqual([]);
    return { gate, jobId };
  }

  async function stopBegun(worker: TestWorker): Promise<void> {
    await waitFor(() => listenerClosed(worker.serverUrl ?? ""), { timeoutMs: 10_000, what: "the worker's listener to close" });
  }

  test("while idle: the stop closes the BullMQ workers, the queues and the connection, unforced", async () => {
    const worker = await startWorker();

    await worker.app.stop();

    expect(stoppedLines()).toMatchObject([{ forced: false }]);
    expect(await listenerClosed(worker.serverUrl ?? "")).toBe(true);
    await waitFor(() => worker.connection.status === "end", { timeoutMs: 10_000, what: "the worker's Redis connection to end" });
  });

  test("while a job runs: the stop waits for it to finish, and the job completes", async () => {
    const worker = await startWorker();
    const { gate, jobId } = await heldSync(worker);

    const stopping = worker.app.stop();
    await stopBegun(worker);
    expect(await settledYet(stopping)).toBe(false);
    gate.open();
    await stopping;

    const { state, job } = await finishedJob(h.queue(), jobId);
    expect(state).toBe("completed");
    expect(job.returnvalue).toMatchObject({ outcome: "done" });
    expect(stoppedLines()).toMatchObject([{ forced: false }]);
    // The job ended before the stop did: it was waited for, not cut off.
    expect(seqOf("job done", jobId)).toBeLessThan(stoppedLines()[0]?.seq ?? -1);
    await waitFor(() => worker.connection.status === "end", { timeoutMs: 10_000, what: "the worker's Redis connection to end" });
  });

  test("a second stop during the first: it waits for the first, and the worker is stopped once", async () => {
    const worker = await startWorker();
    const { gate, jobId } = await heldSync(worker);

    const first = worker.app.stop();
    await stopBegun(worker);
    const second = worker.app.stop();
    expect(await settledYet(second)).toBe(false);
    gate.open();
    const outcomes = await Promise.allSettled([first, second]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(stoppedLines()).toMatchObject([{ forced: false }]);
    expect((await finishedJob(h.queue(), jobId)).state).toBe("completed");
    expect(seqOf("job done", jobId)).toBeLessThan(stoppedLines()[0]?.seq ?? -1);
    expect(h.logs.filter((line) => line.msg === "could not release a resource; releasing the others")).toEqual([]);
  });
});
