import type { Logger } from "pino";
import type { CollectionSpec, ServiceOption } from "../../core/domain/option-collection.js";
import type { CollectionPlan, LastWritten } from "../../core/reconcile/collection-plan.js";
import { codeKey } from "../../core/derive/code-key.js";
import type { batchOfWrite, WriteContext } from "../../stores/history/batch-of-write.js";
import { planCollection } from "../../core/reconcile/plan-collection.js";
import { splitPlanWrites } from "../../core/reconcile/split-plan-writes.js";
import type { DeletionCheck } from "./confirm-deletions.js";
import type { HeldForRun } from "./held/held-for-run.js";
import { desiredWithNamedOptions } from "./named-options.js";
import type { DesiredOptions } from "./open-desired-options.js";
import type { SyncFailures } from "./sync-failures.js";
import type { SyncDeps, SyncInput } from "./sync-input.js";
import { DEFAULT_MAX_OPTIONS_PER_WRITE } from "./sync-limits.js";
import type { CollectionOutcome } from "./sync-report.js";

/** Records one write the service accepted in the change history (the run's origin and time added). */
export type RecordWrite = (write: Parameters<typeof batchOfWrite>[0], context: Omit<WriteContext, "origin" | "at">) => Promise<void>;

/** What every collection of one sync run shares. */
export interface CollectionRun {
  readonly deps: Pick<SyncDeps, "state" | "service">;
  readonly input: SyncInput;
  readonly log: Logger;
  readonly now: () => Date;
  readonly idByName: ReadonlyMap<string, number>;
  readonly failures: SyncFailures;
  readonly record: RecordWrite;
  /** What the project's held plans approve and hold, read before the run. */
  readonly held: HeldForRun;
  readonly signal: AbortSignal;
}

function desiredOf(source: DesiredOptions, lastWritten: LastWritten, collection: string): readonly ServiceOption[] {
  if (source.kind === "list") return source.options;
  // Named options are planned only against a state: openDesiredOptions reads the list otherwise.
  if (lastWritten === null) throw new Error(`collection '${collection}' has no last-written state to plan its named options against`);
  return desiredWithNamedOptions(lastWritten, source.named);
}

/**
 * Keeps the deletion guard's count across runs (StateStore.deletedWithin) as a collection is
 * written: each chunk's deletions are counted once the service accepted them, so a run that
 * fails half-way counts what it did delete. Deletions an admin reviewed (an approved plan,
 * `--allow-mass-delete`) start the count again instead. A replace deletes implicitly: the
 * last-written options the PIM no longer lists.
 */
function deletionCounter(
  run: CollectionRun,
  collection: string,
  plan: CollectionPlan,
  lastWritten: LastWritten,
  approvedHere: ReadonlyMap<string, string> | undefined,
): { written(names: readonly string[]): Promise<void>; done(): Promise<void> } {
  const { deps, input } = run;
  if ((input.guard.windowMs ?? 0) === 0) return { written: async () => {}, done: async () => {} };
  const reviewed = input.allowMassDelete || (approvedHere !== undefined && plan.deletes.some((name) => approvedHere.has(name)));
  const planned = new Set(plan.deletes);
  const record = (count: number): Promise<void> =>
    reviewed || count === 0 ? Promise.resolve() : deps.state.recordDeleted(input.project, collection, count);
  return {
    written: (names) => record(names.filter((name) => planned.has(name)).length),
    async done() {
      if (reviewed) await deps.state.forgetDeleted(input.project, collection);
      else if (plan.action === "replace" && lastWritten !== null) {
        const listed = new Set([...plan.upserts.map((option) => codeKey(option.name))]);
        await record([...lastWritten.keys()].filter((name) => !listed.has(codeKey(name))).length);
      }
    },
  };
}

/**
 * One collection: plans it against its last-written state (the options of a list read whole, or
 * the last-written entries of the named options with those read alone; then the deletion guard, recent
 * add-options, approved held deletions), then, unless nothing changed or it is a dry run,
 * confirms every deletion with the PIM, writes the plan in chunks, updates the state after each
 * chunk and records each chunk in the history. A write that fails is a failure of this
 * collection only; an aborted run throws.
 */
export async function syncCollection(
  run: CollectionRun,
  spec: CollectionSpec,
  source: DesiredOptions,
  deletionCheck: DeletionCheck,
): Promise<CollectionOutcome> {
  const { deps, input, log, now, signal } = run;
  const some = source.kind === "named" ? source.lastWritten.get(spec.name) : undefined;
  const lastWritten = source.kind === "named" ? (some?.entries ?? null) : await deps.state.read(input.project, spec.name);
  const desired = desiredOf(source, lastWritten, spec.name);
  // Named options are planned against their entries only; the state's other options stay as they are.
  const unlisted = some ? some.size - some.entries.size : 0;
  const recentlyAdded = await deps.state.recentlyAdded(input.project, spec.name, now().getTime() - input.recentAdditionGraceMs);
  const approvedHere = run.held.approved.get(spec.name);
  const awaitingReview = run.held.awaiting.get(spec.name);
  const windowMs = input.guard.windowMs ?? 0;
  // Only a guard that would count them needs them: nothing to delete from, or no guard, costs no read.
  const recentDeletes =
    windowMs > 0 && lastWritten !== null && !input.allowMassDelete ? await deps.state.deletedWithin(input.project, spec.name, windowMs) : 0;
  const plan = planCollection({
    collection: spec.name,
    desired,
    lastWritten,
    full: input.full && input.alreadyReplaced?.has(spec.name) !== true,
    allowMassDelete: input.allowMassDelete,
    guard: input.guard,
    recentlyAdded,
    unlisted,
    recentDeletes,
    ...(approvedHere ? { approvedDeletions: new Set(approvedHere.keys()) } : {}),
    ...(awaitingReview ? { awaitingReview } : {}),
  });
  input.onCollection?.({ spec, options: desired }, plan);
  const base = {
    collection: spec.name,
    attribute: spec.attribute,
    action: plan.action,
    reason: plan.reason,
    // A rename (a code the PIM now spells differently) counts as the upsert it is, not a deletion.
    upserts: plan.upserts.length + (plan.renames?.length ?? 0),
    deletes: plan.deletes.length,
    heldBack: plan.heldBack,
    ...(source.kind === "named" ? { only: [...source.named.present.map((option) => option.name), ...source.named.gone] } : {}),
  };
  if (plan.heldBack)
    log.warn({ collection: spec.name, heldBack: plan.heldBack.names.length, reason: plan.heldBack.reason }, "deletions held back");
  if (input.dryRun || plan.action === "none") return { ...base, written: false };

  const id = run.idByName.get(spec.name);
  if (id === undefined) throw new Error(`collection '${spec.name}' has no id`); // grouped only when the service has it
  try {
    // Nothing is deleted that the PIM still serves: such a name proves the list was cut short.
    const stillInPim = plan.deletes.length === 0 ? [] : await deletionCheck.namesStillInPim(plan.deletes);
    if (stillInPim.length > 0) {
      const shown = stillInPim.slice(0, 10).join(", ") + (stillInPim.length > 10 ? ` and ${stillInPim.length - 10} more` : "");
      throw new Error(`the PIM still has ${shown}, missing from the list read: the list was incomplete, nothing written`);
    }
    const deletionsConfirmedAt = plan.deletes.length === 0 ? null : now().toISOString();
    // A replace that fails half-way must be replaced again next time, whatever was known.
    if (plan.action === "replace") await deps.state.forget(input.project, spec.name);
    const deletions = deletionCounter(run, spec.name, plan, lastWritten, approvedHere);
    for (const write of splitPlanWrites(plan, input.maxOptionsPerWrite ?? DEFAULT_MAX_OPTIONS_PER_WRITE)) {
      await deps.service.updateOptions(id, write, signal);
      // In the history before the state: a run killed between the two writes the chunk again on
      // its retry (the state does not have it) and records it again, so no accepted write is
      // ever missing from the history (one may be there twice).
      await run.record(write, { plan, lastWritten, deletionsConfirmedAt, approvedIn: approvedHere });
      if (plan.action === "update") await deps.state.update(input.project, spec.name, write.upsert_options, write.delete_options);
      await deletions.written(write.delete_options);
    }
    if (plan.action === "replace") await deps.state.replace(input.project, spec.name, plan.upserts);
    await deletions.done();
    if (plan.action === "replace" && input.full) {
      // Only saves work on a retry: if it cannot be recorded, the retry replaces again.
      await input
        .onReplaced?.(spec.name)
        .catch((error: unknown) => log.warn({ collection: spec.name, err: error }, "could not record the replace for a retry"));
    }
    log.info({ collection: spec.name, action: plan.action, upserts: base.upserts, deletes: base.deletes }, "collection written");
    return { ...base, written: true };
  } catch (error) {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    run.failures.failCollections(`write to '${spec.name}' failed: ${message}`, error, [spec]);
    return { ...base, written: false, error: message };
  }
}
