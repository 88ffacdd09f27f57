import type { CollectionPlan } from "../../core/reconcile/collection-plan.js";
import type { SyncTargets } from "../../core/domain/sync-targets.js";
import { runReviewedSync } from "../../features/sync/held/run-reviewed-sync.js";
import { jobOrigin } from "../../stores/history/run-origin.js";
import type { JobContext } from "./job-context.js";
import { SyncIncomplete } from "./sync-incomplete.js";
import { logSynced, summaryOf, type PlannedCollection, type SyncJobResult } from "./sync-job-result.js";
import { exitCodeOf, EXIT_CODES } from "../../features/sync/sync-report.js";

/** Names of each kind a resync's result lists per collection: a job result is not a catalogue. */
export const PLAN_NAMES_SHOWN = 200;

export interface ResyncRequest {
  readonly request: string;
  readonly collection?: string | undefined;
  readonly attribute?: string | undefined;
  readonly dry_run: boolean;
  readonly requested_by: string;
}

/** What a resync reconciles: one collection, one attribute's collections, or (neither) the whole project. */
export function resyncTargetsOf(resync: Pick<ResyncRequest, "collection" | "attribute">): SyncTargets | undefined {
  if (resync.collection !== undefined) return { attributes: [], referenceEntities: [], options: [], collections: [resync.collection] };
  if (resync.attribute !== undefined) return { attributes: [resync.attribute], referenceEntities: [], options: [] };
  return undefined;
}

function plannedOf(plan: CollectionPlan): PlannedCollection {
  const upserts = plan.upserts.map((option) => option.name);
  const deletes = [...plan.deletes];
  const heldBack = [...(plan.heldBack?.names ?? [])];
  const more = [upserts, deletes, heldBack].reduce((sum, names) => sum + Math.max(0, names.length - PLAN_NAMES_SHOWN), 0);
  return {
    collection: plan.collection,
    action: plan.action,
    upserts: upserts.slice(0, PLAN_NAMES_SHOWN),
    deletes: deletes.slice(0, PLAN_NAMES_SHOWN),
    heldBack: heldBack.slice(0, PLAN_NAMES_SHOWN),
    more,
  };
}

/**
 * An admin's resync, through the targeted path events take (the one sync path: the guard counted
 * across runs, the held review, the history under the admin's name): one collection, one
 * attribute or the whole project. A dry run plans and writes nothing (no history, no held plan);
 * its result lists what it would write.
 */
export async function runResyncJob(
  data: { readonly project: number; readonly resync: ResyncRequest },
  context: JobContext,
): Promise<SyncJobResult> {
  const { resync } = data;
  const targets = resyncTargetsOf(resync);
  const plan: PlannedCollection[] = [];
  await context.log(
    `${resync.dry_run ? "dry run of a resync" : "resync"} of ${resync.collection !== undefined ? `collection ${resync.collection}` : resync.attribute !== undefined ? `attribute ${resync.attribute}` : "the whole project"}, asked by ${resync.requested_by}`,
  );
  const report = await runReviewedSync(context.runtime, context.settings, context.logger, {
    origin: jobOrigin(data.project, context.jobId, "admin", resync.requested_by),
    full: false,
    allowMassDelete: false,
    dryRun: resync.dry_run,
    signal: context.signal,
    onCollection: (_collection, collectionPlan) => plan.push(plannedOf(collectionPlan)),
    ...(targets ? { targets } : {}),
  });
  await logSynced(report, context);
  if (exitCodeOf(report) === EXIT_CODES.failure) throw new SyncIncomplete(report.failures, report.retryAfterMs, report.permanentFailures);
  return { ...summaryOf(report), dryRun: resync.dry_run, plan };
}
