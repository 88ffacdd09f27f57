import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { HistoryBatch } from "../../../stores/history/history-batch.js";
import type { HistoryStore } from "../../../stores/history/history-store.js";
import type { RunOrigin } from "../../../stores/history/run-origin.js";
import type { SyncReport } from "../sync-report.js";
import type { HeldPlan } from "./held-plan.js";
import type { HeldStore } from "./held-store.js";
import { reviewAfterRun, type SupersededApproval } from "./review-after-run.js";

/** A short id an admin can type: when, and a few random bytes. */
export function newHeldPlanId(nowMs: number = Date.now()): string {
  return `${nowMs.toString(36)}-${randomBytes(3).toString("hex")}`;
}

/**
 * After a (not dry) run: the approved plans it carried out go, the deletions it held become a
 * pending plan (see reviewAfterRun). Each write is a compare-and-set on the copy read before the
 * run: a plan an admin approved while the run went on keeps its approval (the next run carries
 * it out), and one that went is not brought back. A failure to keep the plans is logged: the
 * run's writes are done, and what the plans held was not deleted either way.
 */
export async function keepHeldPlans(
  args: {
    readonly held: HeldStore;
    readonly project: number;
    readonly origin: RunOrigin;
    readonly expiryMs: number;
    readonly logger: Logger;
    readonly nowMs: number;
    /** The run derived every collection (not a targeted sync): only such a run can supersede an approval. */
    readonly whole: boolean;
    readonly history?: HistoryStore;
  },
  plans: readonly HeldPlan[],
  report: SyncReport,
): Promise<void> {
  try {
    const changes = reviewAfterRun({
      report,
      plans,
      origin: args.origin,
      nowMs: args.nowMs,
      expiryMs: args.expiryMs,
      newId: () => newHeldPlanId(args.nowMs),
      whole: args.whole,
    });
    // In the history before the plan loses them: an approval is never dropped unrecorded.
    if (changes.superseded.length > 0) {
      await args.history?.append(args.project, supersededBatch(changes.superseded, args.origin, new Date(args.nowMs).toISOString()));
      for (const { plan, collection, reason } of changes.superseded)
        args.logger.warn(
          { project: args.project, plan: plan.id, collection: collection.collection, options: collection.options.length, reason },
          "approved deletions superseded: they can no longer be carried out",
        );
    }
    const refused: string[] = [];
    for (const { plan, read } of changes.save) if (!(await args.held.save(plan, read))) refused.push(plan.id);
    for (const plan of changes.discard) if (!(await args.held.discard(plan))) refused.push(plan.id);
    if (refused.length > 0)
      args.logger.info(
        { project: args.project, plans: refused },
        "held plans changed while the sync ran (approved meanwhile): left as they are for the next run",
      );
  } catch (error) {
    args.logger.error({ project: args.project, err: error }, "could not keep the held deletions for review");
  }
}

/** Each option of a superseded approval as kept in the service, with why and whose approval it was. */
function supersededBatch(superseded: readonly SupersededApproval[], origin: RunOrigin, at: string): HistoryBatch {
  return superseded.map(({ plan, collection, reason }) => ({
    collection: collection.collection,
    kind: "kept" as const,
    reason: `approved deletion not carried out: ${reason} (held plan ${plan.id}, approved by ${plan.approved?.by ?? "an admin"})`,
    job: origin.job,
    trigger: origin.trigger,
    ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }),
    at,
    options: [...collection.options],
  }));
}
