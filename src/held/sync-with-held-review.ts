import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { RunOrigin } from "../history/run-origin.js";
import type { SyncReport } from "../sync/sync-report.js";
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
    for (const plan of changes.put) await args.held.put(plan);
    await args.held.remove(args.project, changes.remove);
  } catch (error) {
    args.logger.error({ project: args.project, err: error }, "could not keep the held deletions for review");
  }
  return report;
}
