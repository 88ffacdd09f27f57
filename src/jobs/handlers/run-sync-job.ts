import { runReviewedSync } from "../../features/sync/held/run-reviewed-sync.js";
import { jobOrigin } from "../../stores/history/run-origin.js";
import type { JobInfrastructure } from "./job-infrastructure.js";
import { createFullSyncProgress, type FullSyncProgress } from "./full-sync-progress.js";
import type { JobContext } from "./job-context.js";
import { syncResultOf, type SyncJobResult } from "./sync-job-result.js";

/** What a `sync.run` job asks (its schema is the catalog entry's, src/jobs/catalog/sync-run.ts). */
export interface SyncRunRequest {
  readonly project: number;
  readonly full: boolean;
  readonly allow_mass_delete: boolean;
  readonly trigger: string;
  readonly requested_by?: string | undefined;
}

/** What a `sync.run` job needs beyond its context. */
export interface SyncRunDeps {
  /** Where a `--full` sync remembers, across its attempts, what it already replaced (none: every attempt replaces). */
  readonly fullSyncProgress?: FullSyncProgress;
}

export function syncRunDeps(infra: JobInfrastructure): SyncRunDeps {
  return { fullSyncProgress: createFullSyncProgress(infra.redis, infra.prefix) };
}

/** A sync of one project; a `--full` one resumes after the collections an earlier attempt replaced. */
export async function runSyncJob(data: SyncRunRequest, context: JobContext & { readonly deps: SyncRunDeps }): Promise<SyncJobResult> {
  const { runtime, settings } = context;
  const progress = data.full && context.jobId !== "" ? context.deps.fullSyncProgress : undefined;
  const alreadyReplaced = (await progress?.replaced(data.project, context.jobId)) ?? new Set<string>();
  if (alreadyReplaced.size > 0)
    await context.log(
      `resuming a full sync: ${alreadyReplaced.size} collection(s) were replaced by an earlier attempt and get the difference only`,
    );
  const report = await runReviewedSync(runtime, settings, context.logger, {
    origin: jobOrigin(data.project, context.jobId, data.trigger, data.requested_by),
    full: data.full,
    allowMassDelete: data.allow_mass_delete,
    dryRun: false,
    signal: context.signal,
    alreadyReplaced,
    ...(progress ? { onReplaced: (collection: string) => progress.record(data.project, context.jobId, collection) } : {}),
  });
  const result = await syncResultOf(report, context);
  await progress?.clear(data.project, context.jobId);
  return result;
}
