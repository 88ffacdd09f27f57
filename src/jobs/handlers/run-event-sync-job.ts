import { isEmptyTargets } from "../../domain/sync-targets.js";
import { syncTargetsOf } from "../../events/sync-targets-of.js";
import { guardOf, namingOf } from "../../project-runtime.js";
import { syncProject } from "../../sync/sync-project.js";
import type { JobContext } from "../job-context.js";
import { syncResultOf, type SyncJobResult } from "./sync-job-result.js";

/** A targeted sync of what the project's PIM events left pending (src/events/). */
export async function runEventSyncJob(data: { readonly project: number }, context: JobContext): Promise<SyncJobResult> {
  const { runtime, settings } = context;
  if (!context.pimEvents) throw new Error("this worker keeps no PIM event backlog");
  const taken = await context.pimEvents.pending(data.project);
  const targets = syncTargetsOf(taken.keys());
  if (isEmptyTargets(targets)) {
    // A follow-up of a run that already took every target, or a redelivered event.
    await context.pimEvents.settle(data.project, taken);
    return { outcome: "done", targets: 0, written: 0, upserts: 0, deletes: 0, unchanged: 0, heldBack: [], missing: [], durationMs: 0 };
  }
  const options = targets.options.reduce((sum, target) => sum + target.codes.length, 0);
  await context.log(
    `targeted sync of ${targets.attributes.length} whole attribute(s), ${options} option(s) of ${targets.options.length} other attribute(s) and ${targets.referenceEntities.length} reference entit(ies)`,
  );
  const report = await syncProject(
    { pim: runtime.pim, service: runtime.service, state: runtime.state, logger: context.logger },
    {
      project: data.project,
      filters: { channels: runtime.project.channels, locales: runtime.project.locales },
      naming: namingOf(runtime.project),
      guard: guardOf(runtime.project),
      full: false,
      allowMassDelete: false,
      dryRun: false,
      recentAdditionGraceMs: settings.add_options.recent_addition_grace_ms,
      signal: context.signal,
      targets,
    },
  );
  // Thrown before settling: a failed run leaves its targets pending for its retry.
  const result = await syncResultOf(report, context);
  await context.pimEvents.settle(data.project, taken);
  return { ...result, targets: taken.size };
}
