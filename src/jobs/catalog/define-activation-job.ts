import type { z } from "zod";
import { ACTIVATION_JOB_TIMEOUT_MS } from "../../upstreams/activation/activation-assumptions.js";
import { connectionSummary } from "./connection-summary.js";
import { defineJob, type EnqueuePolicy, type JobBackoff, type JobDefinition, type JobQueueSubjects } from "./define-job.js";

/** How an Activation job retries, by who waits for it. */
export const ACTIVATION_RETRIES = {
  /** A push someone asked for (offers, shipments): 8 attempts, 10 s doubling to about 21 min, like add-options. */
  push: { attempts: 8, backoff: { type: "exponential", delay: 10_000, jitter: 0.5 } },
  /**
   * A pull, or an operator's resend: 5 attempts, 5 s doubling to 40 s, about 75 s covered; for a
   * pull the next scheduled one (5 min) takes over after that.
   */
  quick: { attempts: 5, backoff: { type: "exponential", delay: 5_000, jitter: 0.5 } },
} as const satisfies Record<string, { readonly attempts: number; readonly backoff: JobBackoff }>;

/** What sets one Activation job apart from the others; the rest of its entry is theirs too. */
interface ActivationJobEntry<N extends string, S extends z.ZodType<JobQueueSubjects["activation"]>, R> {
  readonly name: N;
  readonly schema: S;
  readonly retry: (typeof ACTIVATION_RETRIES)[keyof typeof ACTIVATION_RETRIES];
  readonly handler: JobDefinition<N, "activation", S, R>["handler"];
  /** A new job per request (Idempotency-Key job ids `act-…`) when left out. */
  readonly enqueue?: EnqueuePolicy<z.output<S>>;
}

/**
 * An entry of the Activation queue: every one is bounded by ACTIVATION_JOB_TIMEOUT_MS and listed
 * by its connection (and offer count), so an entry names only its job, data, retry and handler.
 */
export function defineActivationJob<const N extends string, S extends z.ZodType<JobQueueSubjects["activation"]>, R>(
  entry: ActivationJobEntry<N, S, R>,
): JobDefinition<N, "activation", S, R> {
  return defineJob({
    name: entry.name,
    queue: "activation",
    schema: entry.schema,
    attempts: entry.retry.attempts,
    backoff: entry.retry.backoff,
    timeoutMs: () => ACTIVATION_JOB_TIMEOUT_MS,
    summary: connectionSummary,
    handler: entry.handler,
    enqueue: entry.enqueue ?? { kind: "each", idempotentJobIdPrefix: "act-" },
  });
}
