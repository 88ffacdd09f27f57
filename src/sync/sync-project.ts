import type { Logger } from "pino";
import type { CollectionSpec, DesiredCollection, OptionSource, SelectField } from "../domain/option-collection.js";
import { optionSourceKey } from "../domain/option-collection.js";
import { deriveCollectionSpecs, resolveProjectScope, type NamingTemplates, type ProjectFilters } from "../derive/index.js";
import type { ConfigServiceClient } from "../config-service/config-service-client.js";
import { HttpError } from "../http/http-error.js";
import { statsSince } from "../http/request-stats.js";
import type { CollectionPlan, DeletionGuard } from "../reconcile/collection-plan.js";
import { planCollection } from "../reconcile/plan-collection.js";
import { splitPlanWrites } from "../reconcile/split-plan-writes.js";
import type { StateStore } from "../state/state-store.js";
import { batchOfWrite, type WriteContext } from "../history/batch-of-write.js";
import type { HistoryStore } from "../history/history-store.js";
import { createHistoryRecorder, type HistoryRecorder } from "../history/history-recorder.js";
import { cliOrigin, type RunOrigin } from "../history/run-origin.js";
import { createDeletionCheck } from "./confirm-deletions.js";
import type { PimReader } from "./pim-reader.js";
import type { PimCatalogStructure } from "../domain/pim-catalog.js";
import { specIsTargeted, type SyncTargets } from "../domain/sync-targets.js";
import { openSourceOptions } from "./read-source-options.js";
import { compareReadingOrder } from "./reading-order.js";
import { runSourcePipeline } from "./run-source-pipeline.js";
import type { CollectionOutcome, MissingCollection, SyncReport } from "./sync-report.js";
import { PimSyncError } from "../errors/pim-sync-error.js";

type DeletionCheck = ReturnType<typeof createDeletionCheck>;

export interface SyncDeps {
  readonly pim: PimReader;
  readonly service: Pick<ConfigServiceClient, "listCollections" | "updateOptions" | "stats">;
  readonly state: StateStore;
  readonly logger: Logger;
  readonly now?: () => Date;
  /** Where each accepted write is recorded (src/history/); none: not recorded. */
  readonly history?: HistoryStore;
}

export interface SyncInput {
  readonly project: number;
  readonly filters: ProjectFilters;
  readonly naming: NamingTemplates;
  readonly guard: DeletionGuard;
  readonly full: boolean;
  readonly allowMassDelete: boolean;
  /** Plan only: read everything, write nothing (neither the service nor the state). */
  readonly dryRun: boolean;
  /** Option sources read at once; the PIM client's own limiter still caps requests in flight. */
  readonly sourceConcurrency?: number;
  /** Sources read and waiting for the service or writing, at most (their options are in memory). */
  readonly writingSources?: number;
  /** Options of those sources, at most (a single larger source still goes through alone). */
  readonly writingOptions?: number;
  readonly maxOptionsPerWrite?: number;
  /** Options added through add-options this recently are never deleted (the PIM may lag). */
  readonly recentAdditionGraceMs?: number;
  /** The run's job and trigger, as the history records them (a CLI run of its own by default). */
  readonly origin?: RunOrigin;
  /**
   * Held deletions an admin approved (src/held/): collection → option → held plan id. They go
   * ahead though the guard trips; any other deletion it would hold stays held.
   */
  readonly approvedDeletions?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /**
   * With `full`: collections an earlier attempt of this same sync already replaced. Their state
   * is exactly what that replace wrote, so they get the difference, not a second replace.
   */
  readonly alreadyReplaced?: ReadonlySet<string>;
  /** With `full`: told of each collection replaced (after the service and the state have it). */
  readonly onReplaced?: (collection: string) => Promise<void>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { readonly done: number; readonly total: number; readonly collection: string }) => void;
  /** Sees each derived collection with its plan (for dry-run output); not kept by the sync itself. */
  readonly onCollection?: (collection: DesiredCollection, plan: CollectionPlan) => void;
  readonly onFields?: (fields: readonly SelectField[]) => void;
  /**
   * A targeted sync (src/events/): only the structure these targets need is read, and only
   * their collections are reconciled, with the same planning, deletion check and guard.
   */
  readonly targets?: SyncTargets;
}

/**
 * Option sources read at once. Four keep the PIM's four request slots busy (a list without a
 * count is read one page after another) while bounding memory to four sources' options.
 */
export const DEFAULT_SOURCE_CONCURRENCY = 4;

/**
 * Sources read and not yet written, at most, and their options in all. A source hands its read
 * slot on once read, so the PIM keeps reading while writes wait for the service's 10
 * requests/s; these cap what the waiting sources hold. Four writing sources, as many as
 * before the stage existed: each holds its options and, while it plans a collection, that
 * collection's last-written state (8 let the re-sync's peak RSS reach 306 MB). Sources enter
 * in the order they were read. A long source (more than half the cap) counts for just over
 * half of it: it waits for half the stage to drain, not all of it (with a plain cap a long
 * source waited for the stage to empty, and every reader behind it stood still), and two long
 * sources are never in the stage together (when two were, beside the largest being read, the
 * option-heavy re-sync's peak RSS reached 289–312 MB).
 */
export const DEFAULT_WRITING_SOURCES = 4;
export const DEFAULT_WRITING_OPTIONS = 60_000;

/** A source's weight in the write stage: its options, or just over half the cap for a long one. */
export function longSourceWeight(options: number, cap: number): number {
  const half = Math.floor(cap / 2);
  return options > half ? half + 1 : options;
}

/**
 * Attribute sources whose first page is read ahead of their turn, at most: their counts order
 * the reads (largest first, see reading-order.ts). 128 first pages of 100 options are a few MB.
 */
export const DEFAULT_OPEN_AHEAD = 128;

/** 15 minutes: far longer than the PIM's search index takes to catch up. */
export const DEFAULT_RECENT_ADDITION_GRACE_MS = 15 * 60_000;

/** Raised before any write when the project's filters do not match the PIM. */
export class ProjectScopeError extends PimSyncError {
  constructor(readonly problems: readonly string[]) {
    super(`project filters do not match the PIM:\n${problems.map((p) => `  - ${p}`).join("\n")}`, { code: "PROJECT_SCOPE", retryable: false });
    this.name = "ProjectScopeError";
  }
}

function readStructureFor(pim: PimReader, targets: SyncTargets | undefined, signal: AbortSignal): Promise<PimCatalogStructure> {
  if (!targets) return pim.readStructure(signal);
  if (!pim.readTargetStructure) throw new Error("this PIM reader cannot read a targeted structure");
  return pim.readTargetStructure(targets, signal);
}

/** A request the upstream refused for good (4xx but 408/425/429, a response of the wrong shape). */
function isPermanent(error: unknown): boolean {
  return error instanceof HttpError && !error.transient;
}

/**
 * One sync of one project: read the PIM structure, derive the collections, then source by
 * source (one source's options in memory at a time) read the options, plan each collection
 * against the last-written state, write the difference and record it.
 */
export async function syncProject(deps: SyncDeps, input: SyncInput): Promise<SyncReport> {
  // A failure that ends the run cancels the requests still in flight (reads of the other side,
  // other sources), rather than leaving them to retry against clients that are being closed.
  const run = new AbortController();
  // A history that cannot be written does not undo or fail the write (the state has it): logged.
  const history = deps.history
    ? createHistoryRecorder(deps.history, input.project, (error, batch) =>
        deps.logger.error({ project: input.project, collection: batch[0]?.collection, err: { message: (error as Error).message } }, "could not record a write in the change history"),
      )
    : undefined;
  try {
    return await runSync(deps, input, input.signal ? AbortSignal.any([input.signal, run.signal]) : run.signal, history);
  } catch (error) {
    run.abort(error);
    throw error;
  } finally {
    // Batches still being stored are waited for, even after a failure: the caller closes the store next.
    await history?.settled();
  }
}

async function runSync(deps: SyncDeps, input: SyncInput, signal: AbortSignal, history: HistoryRecorder | undefined): Promise<SyncReport> {
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const log = deps.logger.child({ project: input.project });
  const origin = input.origin ?? cliOrigin("sync", startedAt);
  // Recorded after the service accepted the write, never before, and stored while the next
  // chunk is written.
  const record = async (write: Parameters<typeof batchOfWrite>[0], context: Omit<WriteContext, "origin" | "at">): Promise<void> => {
    await history?.record(batchOfWrite(write, { ...context, origin, at: now().toISOString() }));
  };
  // The clients may be shared with other jobs of the worker: report this run's requests only.
  const pimBefore = { ...deps.pim.stats };
  const serviceBefore = { ...deps.service.stats };

  // Both reads before anything else, side by side: they are the sync's sequential prefix.
  const [structure, inService] = await Promise.all([readStructureFor(deps.pim, input.targets, signal), deps.service.listCollections(input.project, signal)]);
  const { scope, problems: scopeProblems } = resolveProjectScope(structure, input.filters);
  if (scopeProblems.length > 0) throw new ProjectScopeError(scopeProblems);
  const derived = deriveCollectionSpecs(structure, scope, input.naming);
  input.onFields?.(derived.fields);
  const failures: string[] = [...derived.problems];
  // Derivation problems come from the PIM's data or the naming: the next run derives the same.
  const permanentFailures: string[] = [...derived.problems];
  const fail = (message: string, error?: unknown): void => {
    failures.push(message);
    if (error === undefined || isPermanent(error)) permanentFailures.push(message);
  };
  let retryAfterMs: number | null = null;
  // Kept so the job layer can wait as long as the upstream asked instead of backing off blindly.
  const noteRetryAfter = (error: unknown): void => {
    if (error instanceof HttpError && error.transient && error.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, error.retryAfterMs);
  };

  const idByName = new Map<string, number>();
  const duplicated = new Set<string>();
  for (const collection of inService) {
    if (idByName.has(collection.name)) duplicated.add(collection.name);
    idByName.set(collection.name, collection.id);
  }
  for (const name of duplicated) fail(`collection '${name}' exists more than once in project ${input.project}; left untouched`);

  const missing: MissingCollection[] = [];
  const bySource = new Map<string, { source: OptionSource; specs: CollectionSpec[] }>();
  const targets = input.targets;
  for (const spec of targets ? derived.specs.filter((candidate) => specIsTargeted(candidate, targets)) : derived.specs) {
    if (!idByName.has(spec.name)) {
      missing.push({ collection: spec.name, field: spec.name, attribute: spec.attribute });
      continue;
    }
    if (duplicated.has(spec.name)) continue;
    const key = optionSourceKey(spec.source);
    const group = bySource.get(key) ?? { source: spec.source, specs: [] };
    group.specs.push(spec);
    bySource.set(key, group);
  }

  const total = [...bySource.values()].reduce((sum, group) => sum + group.specs.length, 0);
  let done = 0;
  const outcomes: CollectionOutcome[] = [];

  async function syncCollection(spec: CollectionSpec, desired: DesiredCollection["options"], deletionCheck: DeletionCheck): Promise<CollectionOutcome> {
    const lastWritten = await deps.state.read(input.project, spec.name);
    const graceMs = input.recentAdditionGraceMs ?? DEFAULT_RECENT_ADDITION_GRACE_MS;
    const recentlyAdded = await deps.state.recentlyAdded(input.project, spec.name, now().getTime() - graceMs);
    const approvedHere = input.approvedDeletions?.get(spec.name);
    const plan = planCollection({
      collection: spec.name,
      desired,
      lastWritten,
      full: input.full && input.alreadyReplaced?.has(spec.name) !== true,
      allowMassDelete: input.allowMassDelete,
      guard: input.guard,
      recentlyAdded,
      ...(approvedHere ? { approvedDeletions: new Set(approvedHere.keys()) } : {}),
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
    };
    if (plan.heldBack) log.warn({ collection: spec.name, heldBack: plan.heldBack.names.length, reason: plan.heldBack.reason }, "deletions held back");
    if (input.dryRun || plan.action === "none") return { ...base, written: false };

    const id = idByName.get(spec.name);
    if (id === undefined) throw new Error(`collection '${spec.name}' has no id`); // filtered out above
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
      for (const write of splitPlanWrites(plan, input.maxOptionsPerWrite ?? 5000)) {
        await deps.service.updateOptions(id, write, signal);
        if (plan.action === "update") await deps.state.update(input.project, spec.name, write.upsert_options, write.delete_options);
        await record(write, { plan, lastWritten, deletionsConfirmedAt, approvedIn: approvedHere });
      }
      if (plan.action === "replace") await deps.state.replace(input.project, spec.name, plan.upserts);
      if (plan.action === "replace" && input.full) {
        // Only saves work on a retry: if it cannot be recorded, the retry replaces again.
        await input.onReplaced?.(spec.name).catch((error: unknown) => log.warn({ collection: spec.name, err: error }, "could not record the replace for a retry"));
      }
      log.info({ collection: spec.name, action: plan.action, upserts: base.upserts, deletes: base.deletes }, "collection written");
      return { ...base, written: true };
    } catch (error) {
      if (signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      noteRetryAfter(error);
      fail(`write to '${spec.name}' failed: ${message}`, error);
      return { ...base, written: false, error: message };
    }
  }

  type SourceGroup = { source: OptionSource; specs: CollectionSpec[] };
  const readFailed = (group: SourceGroup, error: unknown): undefined => {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    noteRetryAfter(error);
    // No plan without a complete read: these collections are left exactly as they are.
    fail(`reading ${optionSourceKey(group.source)} failed, its ${group.specs.length} collection(s) were not touched: ${message}`, error);
    done += group.specs.length;
    return undefined;
  };

  await runSourcePipeline({
    sources: [...bySource.values()],
    open: async (group) => {
      try {
        return { group, opened: await openSourceOptions({ source: group.source, structure, scope, pim: deps.pim, signal }) };
      } catch (error) {
        return { group, opened: readFailed(group, error) };
      }
    },
    // A source whose first page failed is taken at once (nothing to read, its failure is noted).
    compare: (a, b) => (a.opened && b.opened ? compareReadingOrder(a.opened.size, b.opened.size) : a.opened ? 1 : b.opened ? -1 : 0),
    read: async ({ group, opened }) => {
      if (opened === undefined) return undefined;
      try {
        return { group, desired: await opened.read() };
      } catch (error) {
        return readFailed(group, error);
      }
    },
    write: async ({ group, desired }) => {
      const deletionCheck = createDeletionCheck(deps.pim, group.source, signal);
      for (const spec of group.specs) {
        outcomes.push(await syncCollection(spec, desired, deletionCheck));
        done += 1;
        input.onProgress?.({ done, total, collection: spec.name });
      }
    },
    weightOf: ({ desired }) => longSourceWeight(desired.length, input.writingOptions ?? DEFAULT_WRITING_OPTIONS),
    readers: input.sourceConcurrency ?? DEFAULT_SOURCE_CONCURRENCY,
    writers: input.writingSources ?? DEFAULT_WRITING_SOURCES,
    writeBudget: input.writingOptions ?? DEFAULT_WRITING_OPTIONS,
    openAhead: DEFAULT_OPEN_AHEAD,
    signal,
  });

  outcomes.sort((a, b) => (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0));
  return {
    project: input.project,
    dryRun: input.dryRun,
    full: input.full,
    startedAt: startedAt.toISOString(),
    durationMs: now().getTime() - startedAt.getTime(),
    collections: outcomes,
    missing,
    unsupported: derived.unsupported,
    failures,
    permanentFailures,
    retryAfterMs,
    requests: { pim: statsSince(pimBefore, deps.pim.stats), service: statsSince(serviceBefore, deps.service.stats) },
  };
}
