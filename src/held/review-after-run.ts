import type { RunOrigin } from "../history/run-origin.js";
import type { SyncReport } from "../sync/sync-report.js";
import type { HeldCollection, HeldPlan } from "./held-plan.js";

export interface HeldReviewChanges {
  /** Plans to write: this run's held plan (new, or the same one held again), and approved plans with collections left. */
  readonly put: readonly HeldPlan[];
  /** Plans done with: approved ones carried out, pending ones this run's plan supersedes. */
  readonly remove: readonly string[];
}

function sameContent(a: readonly HeldCollection[], b: readonly HeldCollection[]): boolean {
  const key = (collections: readonly HeldCollection[]): string =>
    JSON.stringify(collections.map((c) => [c.collection, [...c.options].sort()]).sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1)));
  return key(a) === key(b);
}

/**
 * What a finished (not dry) run changes in a project's held plans. Pure.
 * - An approved plan's collection is done once the run wrote it or found nothing to change;
 *   a collection the run could not write (or did not reach) stays approved for the next run.
 * - A pending plan whose collections were all planned by this run is superseded: what is still
 *   held is in this run's plan (the same plan, kept with its id, when it holds the same options).
 * - This run's held deletions become a plan, expiring `expiryMs` after this run.
 */
export function reviewAfterRun(args: {
  readonly report: SyncReport;
  readonly plans: readonly HeldPlan[];
  readonly origin: RunOrigin;
  readonly nowMs: number;
  readonly expiryMs: number;
  readonly newId: () => string;
}): HeldReviewChanges {
  const { report, plans, origin, nowMs } = args;
  const outcomes = new Map(report.collections.map((outcome) => [outcome.collection, outcome] as const));
  const put: HeldPlan[] = [];
  const remove: string[] = [];

  const held: HeldCollection[] = report.collections.flatMap((outcome) =>
    outcome.heldBack && outcome.heldBack.names.length > 0
      ? [{ collection: outcome.collection, options: [...outcome.heldBack.names].sort(), reason: outcome.heldBack.reason }]
      : [],
  );
  const now = new Date(nowMs).toISOString();
  const run = {
    job: origin.job,
    trigger: origin.trigger,
    ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }),
  };
  let heldAgain: HeldPlan | undefined;

  for (const plan of plans) {
    if (plan.approved !== null) {
      const left = plan.collections.filter(({ collection }) => {
        const outcome = outcomes.get(collection);
        return outcome === undefined || outcome.error !== undefined || (outcome.action !== "none" && !outcome.written);
      });
      if (left.length === 0) remove.push(plan.id);
      else if (left.length < plan.collections.length) put.push({ ...plan, collections: left });
      continue;
    }
    const planned = plan.collections.every(({ collection }) => outcomes.has(collection));
    if (!planned) continue;
    if (heldAgain === undefined && held.length > 0 && sameContent(plan.collections, held)) heldAgain = plan;
    else remove.push(plan.id);
  }

  if (held.length > 0) {
    const expiresAt = new Date(nowMs + args.expiryMs).toISOString();
    put.push(
      heldAgain
        ? { ...heldAgain, collections: held, lastHeldAt: now, run, expiresAt }
        : { id: args.newId(), project: report.project, collections: held, heldAt: now, lastHeldAt: now, run, expiresAt, approved: null },
    );
  }
  return { put, remove };
}
