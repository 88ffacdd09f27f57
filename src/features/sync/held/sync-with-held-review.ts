import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { RunOrigin } from "../../../stores/history/run-origin.js";
import type { SyncReport } from "../sync-report.js";
import { approvedDeletionsOf } from "./approved-deletions-of.js";
import type { HeldStore } from "./held-store.js";
import { reviewAfterRun } from "./review-after-run.js";

/** A short id an admin can type: when, and a few random bytes. */
export function newHeldPlanId(nowMs: number = Date.now()): string {
  return `${nowMs.toString(36)}-${randomBytes(3).toString("hex")}`;
}

/**
 * One sync with held deletions reviewed around it: the approved plans' deletions go in, this
 * run's held deletions come out as a plan (see reviewAfterRun). A dry run reads the approvals
 * (it shows what the sync would do) and changes no plan. A failure to keep the plans is logged:
 * the sync's writes are done and the deletions stay held either way.
 */
export async function syncWithHeldReview(
  args: {
    readonly held: HeldStore;
    readonly project: number;
    readonly origin: RunOrigin;
    readonly expiryMs: number;
    readonly dryRun: boolean;
    readonly logger: Logger;
    readonly now?: () => number;
  },
  run: (approved: ReadonlyMap<string, ReadonlyMap<string, string>>) => Promise<SyncReport>,
): Promise<SyncReport> {
  const now = args.now ?? Date.now;
  const plans = await args.held.list(args.project);
  const report = await run(approvedDeletionsOf(plans));
  if (args.dryRun) return report;
  try {
    const changes = reviewAfterRun({
      report,
      plans,
      origin: args.origin,
      nowMs: now(),
      expiryMs: args.expiryMs,
      newId: () => newHeldPlanId(now()),
    });
    // Each a compare-and-set on what this run read: a plan an admin approved while the run went
    // on keeps its approval (the next run carries it out), and one that went is not brought back.
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
  return report;
}
