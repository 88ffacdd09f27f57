import { codeKey } from "../../../core/derive/code-key.js";
import type { RunOrigin } from "../../../stores/history/run-origin.js";
import type { SyncReport } from "../sync-report.js";
import type { HeldCollection, HeldPlan } from "./held-plan.js";

export interface HeldReviewChanges {
  /** Plans to write, each with the copy the run read (null: a new plan): a compare-and-set. */
  readonly save: readonly { readonly plan: HeldPlan; readonly read: HeldPlan | null }[];
  /** Plans done with, as read: approved ones carried out, pending ones this run's plan supersedes. */
  readonly discard: readonly HeldPlan[];
  /**
   * Approved deletions this run found it can never carry out (a run of the whole project no
   * longer derives their collection, or the service has no such collection): taken out of their
   * plan and recorded, so that an approval is carried out or visibly replaced, never dropped.
   */
  readonly superseded: readonly SupersededApproval[];
}

export interface SupersededApproval {
  readonly plan: HeldPlan;
  readonly collection: HeldCollection;
  readonly reason: string;
}

function contentKey(collections: readonly HeldCollection[]): string {
  return JSON.stringify(
    collections.map((c) => [c.collection, [...c.options].sort()] as const).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)),
  );
}

/**
 * What a finished (not dry) run changes in a project's held plans. Pure.
 * - An approved plan's collection is carried out by a run that read it whole and wrote it (or
 *   found nothing to change); a run that looked at some of its options only (a targeted sync of
 *   PIM events) settles just those, and the rest stay approved. A collection the run could not
 *   write, or did not reach, stays approved for the next run: an approval does not expire. A
 *   run of the whole project that no longer derives the collection, or finds it missing in the
 *   service, supersedes that part of the approval (`superseded`).
 * - The pending plans the run touched (it planned one of their collections) and the deletions it
 *   held become one pending plan: per collection, a plan of the whole collection replaces what
 *   was held there; an option-level plan (a targeted sync of PIM events, which looks at a few
 *   options) replaces only what it held of the options it looked at and keeps the rest. Since
 *   a run never deletes what a pending plan holds (planCollection's `awaitingReview`), an option
 *   looked at and not held again is one the PIM lists again. When the content equals a touched
 *   plan's, that plan is kept with its id (an admin may be reading it).
 * - The plan expires `expiryMs` after the last run that held deletions in it.
 * Collections of pending plans the run did not plan stay as they are.
 */
export function reviewAfterRun(args: {
  readonly report: SyncReport;
  readonly plans: readonly HeldPlan[];
  readonly origin: RunOrigin;
  readonly nowMs: number;
  readonly expiryMs: number;
  readonly newId: () => string;
  /** The run derived every collection of the project (not a targeted sync). */
  readonly whole: boolean;
}): HeldReviewChanges {
  const { report, plans, origin, nowMs } = args;
  const outcomes = new Map(report.collections.map((outcome) => [outcome.collection, outcome] as const));
  const unwritten = new Set(report.unwritten.map(({ collection }) => collection));
  const missing = new Set(report.missing.map(({ collection }) => collection));
  const save: { plan: HeldPlan; read: HeldPlan | null }[] = [];
  const discard: HeldPlan[] = [];
  const superseded: SupersededApproval[] = [];

  for (const plan of plans) {
    if (plan.approved === null) continue;
    const left: HeldCollection[] = [];
    for (const held of plan.collections) {
      const outcome = outcomes.get(held.collection);
      if (outcome === undefined) {
        if (args.whole && !unwritten.has(held.collection)) {
          const reason = missing.has(held.collection)
            ? "the service has no such collection any more"
            : "the PIM no longer has the attribute it is derived from";
          superseded.push({ plan, collection: held, reason });
        } else left.push(held);
        continue;
      }
      const settled = outcome.error === undefined && (outcome.action === "none" || outcome.written);
      if (!settled) left.push(held);
      else if (outcome.only !== undefined) {
        const looked = new Set(outcome.only.map(codeKey));
        const rest = held.options.filter((option) => !looked.has(codeKey(option)));
        if (rest.length === held.options.length) left.push(held);
        else if (rest.length > 0) left.push({ ...held, options: rest });
      }
    }
    const same = left.length === plan.collections.length && left.every((held, i) => held === plan.collections[i]);
    if (left.length === 0) discard.push(plan);
    else if (!same) save.push({ plan: { ...plan, collections: left }, read: plan });
  }

  const touched = plans.filter((plan) => plan.approved === null && plan.collections.some(({ collection }) => outcomes.has(collection)));
  const next = new Map<string, { options: Map<string, string>; reason: string }>();
  const hold = (collection: string, options: readonly string[], reason: string): void => {
    const entry = next.get(collection) ?? { options: new Map<string, string>(), reason };
    entry.reason = reason;
    for (const option of options) entry.options.set(codeKey(option), option);
    next.set(collection, entry);
  };
  for (const plan of touched)
    for (const held of plan.collections) {
      const outcome = outcomes.get(held.collection);
      if (outcome === undefined) hold(held.collection, held.options, held.reason);
      else if (outcome.only !== undefined) {
        const looked = new Set(outcome.only.map(codeKey));
        hold(
          held.collection,
          held.options.filter((option) => !looked.has(codeKey(option))),
          held.reason,
        );
      }
    }
  let heldNow = false;
  for (const outcome of report.collections)
    if (outcome.heldBack && outcome.heldBack.names.length > 0) {
      heldNow = true;
      hold(outcome.collection, outcome.heldBack.names, outcome.heldBack.reason);
    }
  const held: HeldCollection[] = [...next]
    .filter(([, entry]) => entry.options.size > 0)
    .map(([collection, entry]) => ({ collection, options: [...entry.options.values()].sort(), reason: entry.reason }))
    .sort((a, b) => (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0));

  const now = new Date(nowMs).toISOString();
  const expiresAt = new Date(nowMs + args.expiryMs).toISOString();
  const run = {
    job: origin.job,
    trigger: origin.trigger,
    ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }),
  };
  const same = held.length === 0 ? undefined : touched.find((plan) => contentKey(plan.collections) === contentKey(held));
  for (const plan of touched) if (plan !== same) discard.push(plan);
  if (same !== undefined) {
    // Held again by this run: its time and run; otherwise it stays exactly as the admin saw it.
    if (heldNow) save.push({ plan: { ...same, collections: held, lastHeldAt: now, run, expiresAt }, read: same });
  } else if (held.length > 0) {
    save.push({
      plan: {
        id: args.newId(),
        project: report.project,
        collections: held,
        heldAt: now,
        lastHeldAt: now,
        run,
        expiresAt,
        approved: null,
        revision: 0,
      },
      read: null,
    });
  }
  return { save, discard, superseded };
}
