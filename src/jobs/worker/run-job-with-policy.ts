import { DelayedError, UnrecoverableError, type Job } from "bullmq";
import type { LazyChildLogger } from "../../infra/log/lazy-child-logger.js";
import type { Redactor } from "../../infra/secrets/redactor.js";
import { classifyFailure } from "./classify-failure.js";
import { snakeCaseKeys } from "../../core/json/json-key-style.js";
import { markFailureLogged } from "./logged-failures.js";
import { tracingHooks } from "../../infra/telemetry/tracing-hooks.js";
import { SPAN_ATTRIBUTES } from "../../infra/telemetry/span-attribute-names.js";
import { JobsShutDown, type JobCancellation } from "./job-cancellation.js";
import { LazyAbortController } from "./lazy-abort-controller.js";

/**
 * What every job run shares, whichever queue it comes from: one abort controller per job, aborted
 * by the job's time limit or the worker's shutdown (job-cancellation.ts; the only controller a
 * job has: its processor takes no BullMQ signal; its signal is made only when read, see
 * lazy-abort-controller.ts), and failures
 * turned into BullMQ's three outcomes through the one classifier (fail now, delay without using
 * an attempt, retry with the catalog's backoff). A job interrupted by shutdown is handed back.
 * What BullMQ stores of a run (its result, its failed reason and stack) is scrubbed of every
 * configured secret first, and the result's keys are snake_case: Redis, `jobs show` and the job routes only ever see it scrubbed.
 */
export async function runJobWithPolicy(args: {
  readonly job: Job;
  readonly token: string | undefined;
  /** Where a shutdown past its deadline aborts the job. */
  readonly cancellation: JobCancellation;
  /** The job's logger, made only if a line is logged at a level the logger lets through. */
  readonly logger: LazyChildLogger;
  readonly timeoutMs: number;
  /**
   * `http.max_retry_after_ms`: the longest a job is delayed for an upstream's `Retry-After` (or
   * a budget's pause), as the shared pause is capped: a proxy's `Retry-After: 86400` must not
   * park the project's job, and every request that joins it, for a day.
   */
  readonly maxDelayMs: number;
  /** The configured secrets (see src/infra/secrets/redactor-of-settings.ts). */
  readonly redactor: Redactor;
  /** The run's controller: its `signal` is the job's, its `abort` ends the run as the time limit would (e.g. a lock the job lost). */
  run(controller: LazyAbortController): Promise<unknown>;
}): Promise<unknown> {
  const { job, token, logger, redactor } = args;
  // On the job's span (BullMQ's `process`, active here when tracing is on); no-ops otherwise.
  const { annotate } = tracingHooks();
  const outcome = (value: "completed" | "failed" | "retry" | "delayed" | "handed_back"): void =>
    annotate({ [SPAN_ATTRIBUTES.jobOutcome]: value });
  annotate({ [SPAN_ATTRIBUTES.jobId]: job.id ?? "", [SPAN_ATTRIBUTES.jobName]: job.name });
  const controller = new LazyAbortController();
  const timer = setTimeout(() => controller.abort(new Error(`${job.name} ran longer than ${args.timeoutMs} ms`)), args.timeoutMs);
  timer.unref();
  const untrack = args.cancellation.track(controller);
  try {
    // `run` logs "job started" itself: a project job first waits for its project's lock.
    const result = await args.run(controller);
    logger.write("info", "job done");
    outcome("completed");
    // Stored snake_case, as the job's data and every answer (src/core/json/json-key-style.ts): the
    // dashboard shows the stored result as it is.
    return snakeCaseKeys(redactor.redactValue(result));
  } catch (caught) {
    const error = redactor.redactError(caught);
    if (controller.reason instanceof JobsShutDown && token !== undefined) {
      // The worker is shutting down past its deadline: hand the job back at once, without
      // using an attempt, for another worker (its writes so far are in the state).
      logger.write("warn", "job interrupted by shutdown; handing it back to the queue");
      await job.moveToDelayed(Date.now(), token);
      outcome("handed_back");
      throw new DelayedError();
    }
    const verdict = classifyFailure(error);
    logger.write("warn", "job failed", { verdict: verdict.kind, reason: verdict.reason });
    if (verdict.kind === "permanent") {
      outcome("failed");
      throw logged(new UnrecoverableError(verdict.reason));
    }
    if (verdict.kind === "delay" && token !== undefined) {
      // The next run meets the upstream again: still refused, it is delayed again, each time
      // without an attempt, up to BullMQ's maxStartedAttempts (start-queue-worker.ts).
      const delayMs = Math.min(verdict.delayMs, args.maxDelayMs);
      const capped = delayMs < verdict.delayMs ? ` (it asked for ${verdict.delayMs} ms; capped by http.max_retry_after_ms)` : "";
      await job.log(`delayed ${delayMs} ms by the upstream${capped}: ${verdict.reason}`);
      await job.moveToDelayed(Date.now() + delayMs, token);
      outcome("delayed");
      throw new DelayedError();
    }
    // BullMQ runs it again after the backoff while attempts remain, and fails it after the last.
    outcome("retry");
    throw logged(error instanceof Error ? error : new Error(String(error)));
  } finally {
    clearTimeout(timer);
    untrack();
  }
}

function logged(error: Error): Error {
  markFailureLogged(error);
  return error;
}
