import { syncWithHeldReview } from "../../held/sync-with-held-review.js";
import { jobOrigin } from "../../history/run-origin.js";
import { guardOf, namingOf } from "../../project-runtime.js";
import { syncProject } from "../../sync/sync-project.js";
import type { JobContext } from "../job-context.js";
import { syncResultOf, type SyncJobResult } from "./sync-job-result.js";

/** What a `sync.run` job asks (its schema is the catalog entry's, src/jobs/catalog/sync-run.ts). */
export interface SyncRunRequest {
  readonly project: number;
  readonly full: boolean;
  readonly allow_mass_delete: boolean;
  readonly trigger: string;
  readonly requested_by?: string | undefined;
}

/** A sync of one project; a `--full` one resumes after the collections an earlier attempt replaced. */
export async function runSyncJob(data: SyncRunRequest, context: JobContext): Promise<SyncJobResult> {
  const { runtime, settings } = context;
  const progress = data.full ? context.fullSyncProgress : undefined;
  const alreadyReplaced = (await progress?.replaced(data.project, context.jobId)) ?? new Set<string>();
  if (alreadyReplaced.size > 0)
    await context.log(
      `resuming a full sync: ${alreadyReplaced.size} collection(s) were replaced by an earlier attempt and get the difference only`,
    );
  const origin = jobOrigin(data.project, context.jobId, data.trigger, data.requested_by);
  const review = {
    held: runtime.held,
    project: data.project,
    origin,
    expiryMs: settings.held_deletions.expiry_ms,
    dryRun: false,
    logger: context.logger,
  };
  const report = await syncWithHeldReview(review, (approvedDeletions) =>
    syncProject(
      { pim: runtime.pim, service: runtime.service, state: runtime.state, history: runtime.history, logger: context.logger },
      {
        project: data.project,
        filters: { channels: runtime.project.channels, locales: runtime.project.locales },
        naming: namingOf(runtime.project),
        guard: guardOf(runtime.project),
        full: data.full,
        allowMassDelete: data.allow_mass_delete,
        dryRun: false,
        recentAdditionGraceMs: settings.add_options.recent_addition_grace_ms,
        signal: context.signal,
        alreadyReplaced,
        ...(progress ? { onReplaced: (collection: string) => progress.record(data.project, context.jobId, collection) } : {}),
        origin,
        approvedDeletions,
      },
    ),
  );
  const result = await syncResultOf(report, context);
  await progress?.clear(data.project, context.jobId);
  return result;
}
