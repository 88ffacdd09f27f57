import type { Job } from "bullmq";
import { createActivationQueue, type ActivationQueue } from "../../src/jobs/queues/activation-queue.js";
import { startActivationSimulator, type ActivationSimulator } from "../../sim/activation/activation-simulator.js";
import type { Closable } from "./fixtures.js";
import type { TestRedis } from "./redis.js";
import { waitFor } from "./wait-for.js";

/** What an Activation test runs against: the Activation simulator and the Activation queue under the test Redis's prefix. */
export interface ActivationUnderTest {
  readonly sim: ActivationSimulator;
  readonly queue: ActivationQueue;
  /** Resolves with the Activation job `id` once it has completed or failed. */
  finished(id: string, timeoutMs: number): Promise<{ job: Job; state: string }>;
}

/** Starts both, each handed to `closeAfter` (the fixture) to be closed after the test. */
export async function activationUnderTest(fixtures: {
  readonly redis: TestRedis;
  readonly closeAfter: <T extends Closable>(thing: T) => T;
}): Promise<ActivationUnderTest> {
  const { redis, closeAfter } = fixtures;
  const sim = closeAfter(await startActivationSimulator());
  const queue = closeAfter(
    createActivationQueue({ connection: redis.redis, prefix: redis.prefix, retention: { keep_completed_days: 1, keep_failed_days: 1 } }),
  );
  const finished = (id: string, timeoutMs: number): Promise<{ job: Job; state: string }> =>
    waitFor(
      async () => {
        const state = await queue.queue.getJobState(id);
        if (state !== "completed" && state !== "failed") return undefined;
        const job = await queue.queue.getJob(id);
        return job ? { job, state } : undefined;
      },
      { timeoutMs, intervalMs: 100, what: `activation job ${id} to finish` },
    );
  return { sim, queue, finished };
}
