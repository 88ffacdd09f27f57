import { optionSourceKey } from "../../core/domain/option-collection.js";
import { deriveCollectionSpecs, resolveProjectScope } from "../../core/derive/index.js";
import { statsSince } from "../../infra/http/request-stats.js";
import { batchOfWrite } from "../../stores/history/batch-of-write.js";
import { cliOrigin, type RunOrigin } from "../../stores/history/run-origin.js";
import type { PimReader } from "./pim-reader.js";
import type { PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import { namesCollectionsOnly, specIsTargeted, type SyncTargets } from "../../core/domain/sync-targets.js";
import { createDeletionCheck } from "./confirm-deletions.js";
import { heldForRun, type HeldForRun } from "./held/held-for-run.js";
import { keepHeldPlans } from "./held/keep-held-plans.js";
import { groupSpecsBySource, type SourceGroup } from "./group-specs-by-source.js";
import { longSourceWeight } from "./long-source-weight.js";
import { ProjectScopeError } from "./project-scope-error.js";
import { openDesiredOptions } from "./open-desired-options.js";
import { optionsHeld } from "./options-held.js";
import { compareReadingOrder } from "./reading-order.js";
import { runSourcePipeline } from "./run-source-pipeline.js";
import { serviceCollectionIds } from "./service-collection-ids.js";
import { syncCollection, type CollectionRun, type RecordWrite } from "./sync-collection.js";
import { SyncFailures } from "./sync-failures.js";
import type { SyncDeps, SyncInput } from "./sync-input.js";
import { DEFAULT_OPEN_AHEAD, DEFAULT_SOURCE_CONCURRENCY, DEFAULT_WRITING_OPTIONS, DEFAULT_WRITING_SOURCES } from "./sync-limits.js";
import type { CollectionOutcome, SyncReport } from "./sync-report.js";

export type { SyncDeps, SyncInput } from "./sync-input.js";
export { ProjectScopeError } from "./project-scope-error.js";

/**
 * One sync of one project: read the PIM structure, derive the collections, then source by
 * source (one source's options in memory at a time) read the options, plan each collection
 * against the last-written state, write the difference and record it.
 */
export async function syncProject(deps: SyncDeps, input: SyncInput): Promise<SyncReport> {
  const now = deps.now ?? (() => new Date());
  const origin = input.origin ?? cliOrigin("sync", now());
  // Before anything is read: what pending plans hold is never deleted by this run, and what an
  // admin approved goes ahead. Here, not in a caller, so that no way of running a sync skips it.
  const plans = await deps.held.list(input.project);
  const report = await syncWithPlans(deps, { ...input, origin }, heldForRun(plans));
  if (!input.dryRun)
    await keepHeldPlans(
      {
        held: deps.held,
        project: input.project,
        origin,
        expiryMs: input.heldExpiryMs,
        logger: deps.logger,
        nowMs: now().getTime(),
        whole: input.targets === undefined,
        ...(deps.history ? { history: deps.history } : {}),
      },
      plans,
      report,
    );
  return report;
}

async function syncWithPlans(deps: SyncDeps, input: SyncInput & { readonly origin: RunOrigin }, held: HeldForRun): Promise<SyncReport> {
  // A failure that ends the run cancels the requests still in flight (reads of the other side,
  // other sources), rather than leaving them to retry against clients that are being closed.
  const run = new AbortController();
  try {
    return await runSync(deps, input, held, input.signal ? AbortSignal.any([input.signal, run.signal]) : run.signal);
  } catch (error) {
    run.abort(error);
    throw error;
  }
}

function readStructureFor(pim: PimReader, targets: SyncTargets | undefined, signal: AbortSignal): Promise<PimCatalogStructure> {
  // A collection named alone: which attribute or entity it derives from is known only once derived.
  if (!targets || namesCollectionsOnly(targets)) return pim.readStructure(signal);
  if (!pim.readTargetStructure) throw new Error("this PIM reader cannot read a targeted structure");
  return pim.readTargetStructure(targets, signal);
}

async function runSync(
  deps: SyncDeps,
  input: SyncInput & { readonly origin: RunOrigin },
  held: HeldForRun,
  signal: AbortSignal,
): Promise<SyncReport> {
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const origin = input.origin;
  const history = deps.history;
  // Recorded after the service accepted the write, never before, and stored before the state
  // takes the write (see syncCollection). A history that cannot store it fails the collection:
  // the state does not take the write, so the next run writes it again and records it then.
  const record: RecordWrite = async (write, context) => {
    if (!history) return;
    try {
      await history.append(input.project, batchOfWrite(write, { ...context, origin, at: now().toISOString() }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `the service accepted the write, but the change history could not record it (${message}): the state does not take it, the next run writes it again`,
        { cause: error },
      );
    }
  };
  // The clients may be shared with other jobs of the worker: report this run's requests only.
  const pimBefore = { ...deps.pim.stats };
  const serviceBefore = { ...deps.service.stats };

  // Both reads before anything else, side by side: they are the sync's sequential prefix.
  const [structure, inService] = await Promise.all([
    readStructureFor(deps.pim, input.targets, signal),
    deps.service.listCollections(input.project, signal),
  ]);
  const { scope, problems: scopeProblems } = resolveProjectScope(structure, input.filters);
  if (scopeProblems.length > 0) throw new ProjectScopeError(scopeProblems);
  const derived = deriveCollectionSpecs(structure, scope, input.naming);
  input.onFields?.(derived.fields);
  const failures = new SyncFailures(derived.problems);
  for (const unread of structure.unreadAttributes ?? []) failures.failUnreadAttributes(unread.codes, unread.reason);

  const collectionIds = serviceCollectionIds(inService);
  for (const name of collectionIds.duplicated)
    failures.fail(`collection '${name}' exists more than once in project ${input.project}; left untouched`);
  const targets = input.targets;
  const specs = targets ? derived.specs.filter((candidate) => specIsTargeted(candidate, targets)) : derived.specs;
  const { groups, missing } = groupSpecsBySource(specs, collectionIds);

  const collectionRun: CollectionRun = {
    deps,
    input,
    log: deps.logger.child({ project: input.project }),
    now,
    idByName: collectionIds.idByName,
    failures,
    record,
    held,
    signal,
  };
  const total = groups.reduce((sum, group) => sum + group.specs.length, 0);
  let done = 0;
  const outcomes: CollectionOutcome[] = [];
  const readFailed = (group: SourceGroup, error: unknown): undefined => {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // No plan without a complete read: these collections are left exactly as they are.
    failures.failCollections(
      `reading ${optionSourceKey(group.source)} failed, its ${group.specs.length} collection(s) were not touched: ${message}`,
      error,
      group.specs,
    );
    done += group.specs.length;
    return undefined;
  };

  await runSourcePipeline({
    sources: groups,
    open: async (group) => {
      try {
        return {
          group,
          opened: await openDesiredOptions({
            group,
            structure,
            scope,
            pim: deps.pim,
            state: deps.state,
            project: input.project,
            targets,
            full: input.full,
            signal,
          }),
        };
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
      const deletionCheck = createDeletionCheck(deps.pim, group.source, signal, desired.kind === "named" ? desired.named.gone : []);
      for (const spec of group.specs) {
        outcomes.push(await syncCollection(collectionRun, spec, desired, deletionCheck));
        done += 1;
        input.onProgress?.({ done, total, collection: spec.name });
      }
    },
    weightOf: ({ desired }) => longSourceWeight(optionsHeld(desired), input.writingOptions ?? DEFAULT_WRITING_OPTIONS),
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
    failures: failures.failures,
    permanentFailures: failures.permanentFailures,
    unwritten: failures.unwritten,
    retryAfterMs: failures.retryAfterMs,
    requests: { pim: statsSince(pimBefore, deps.pim.stats), service: statsSince(serviceBefore, deps.service.stats) },
  };
}
