import { isEmptyTargets } from "../../core/domain/sync-targets.js";
import { syncTargetsOf } from "../../features/events/sync-targets-of.js";
import { targetsLeftUnwritten } from "../../features/events/targets-left-unwritten.js";
import { runReviewedSync } from "../../features/sync/held/run-reviewed-sync.js";
import { jobOrigin } from "../../stores/history/run-origin.js";
import { createPimEventStore, type PimEventStore } from "../../features/events/pim-event-store.js";
import type { JobInfrastructure } from "./job-infrastructure.js";
import type { JobContext } from "./job-context.js";
import { SyncIncomplete } from "./sync-incomplete.js";
import { runResyncJob, type ResyncRequest } from "./run-resync-job.js";
import { logSynced, summaryOf, type SyncJobResult } from "./sync-job-result.js";

/** What a `sync.events` job needs beyond its context: the targets PIM events left pending (src/features/events/). */
export interface EventSyncDeps {
  readonly pimEvents: Pick<PimEventStore, "pending" | "settle" | "failed">;
}

export function eventSyncDeps(infra: JobInfrastructure): EventSyncDeps {
  return { pimEvents: createPimEventStore(infra.redis, infra.keyspace) };
}

const pick = (taken: ReadonlyMap<string, string>, keys: readonly string[]): Map<string, string> =>
  new Map(keys.flatMap((key) => (taken.has(key) ? [[key, taken.get(key) ?? ""] as const] : [])));

/**
 * A targeted sync of what the project's PIM events left pending (src/features/events/), through the one
 * sync path (history, held review, the guard counted across runs). Each target is settled on its
 * own: one whose collections were written or found unchanged is done; one a failure left
 * unwritten stays pending for this job's retry, at most TARGET_ATTEMPTS runs (then, like one the
 * upstream refused for good, it is given up to the scheduled sync); a failure that involves no
 * target does not fail the run.
 */
export async function runEventSyncJob(
  data: { readonly project: number; readonly resync?: ResyncRequest | undefined },
  context: JobContext & { readonly deps: EventSyncDeps },
): Promise<SyncJobResult> {
  if (data.resync !== undefined) return runResyncJob({ project: data.project, resync: data.resync }, context);
  const { runtime, settings } = context;
  const pimEvents = context.deps.pimEvents;
  const taken = await pimEvents.pending(data.project);
  const targets = syncTargetsOf(taken.keys());
  if (isEmptyTargets(targets)) {
    // A follow-up of a run that already took every target, or a redelivered event.
    await pimEvents.settle(data.project, taken);
    return { outcome: "done", targets: 0, written: 0, upserts: 0, deletes: 0, unchanged: 0, heldBack: [], missing: [], durationMs: 0 };
  }
  const options = targets.options.reduce((sum, target) => sum + target.codes.length, 0);
  await context.log(
    `targeted sync of ${targets.attributes.length} whole attribute(s), ${options} option(s) of ${targets.options.length} other attribute(s) and ${targets.referenceEntities.length} reference entit(ies)`,
  );
  // A run that throws (the structure or the collection list unread, aborted) settles nothing: its retry reads every target again.
  const report = await runReviewedSync(runtime, settings, context.logger, {
    origin: jobOrigin(data.project, context.jobId, "event"),
    full: false,
    allowMassDelete: false,
    dryRun: false,
    signal: context.signal,
    targets,
  });
  await logSynced(report, context);
  const sorted = targetsLeftUnwritten(taken.keys(), report.unwritten);
  const spent = await pimEvents.failed(data.project, sorted.retry);
  const givenUp = [...sorted.refused, ...spent];
  await pimEvents.settle(data.project, pick(taken, [...sorted.done, ...givenUp]));
  if (givenUp.length > 0) {
    context.logger.warn(
      { project: data.project, targets: givenUp, failures: report.failures },
      "PIM event targets given up: the scheduled sync takes them over",
    );
    await context.log(`given up to the scheduled sync: ${givenUp.join(", ")}`);
  }
  const retrying = sorted.retry.filter((key) => !spent.includes(key));
  if (retrying.length > 0) {
    await context.log(`left pending for a retry: ${retrying.join(", ")}`);
    throw new SyncIncomplete(report.failures, report.retryAfterMs, []);
  }
  if (report.failures.length > 0 && givenUp.length === 0)
    context.logger.warn({ project: data.project, failures: report.failures }, "targeted sync: failures that involve none of its targets");
  return { ...summaryOf(report), targets: taken.size, givenUp: givenUp.length };
}
