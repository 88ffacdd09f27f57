import { statsSince, type RequestStats } from "../../infra/http/request-stats.js";
import { cliOrigin } from "../../stores/history/run-origin.js";
import type { AddOptionsDeps } from "./add-options-deps.js";
import type { IntentsByRequest } from "./add-options-intent-store.js";
import type { AddOptionsOutcome } from "./add-options-outcome.js";
import { assembleOutcomes } from "./assemble-outcomes.js";
import { BatchBook } from "./batch-book.js";
import type { BatchRequest } from "./batch-request.js";
import { uncachedCatalog } from "./catalog-cache.js";
import { checkPimVisibility, type VisibilityCheck } from "./check-pim-visibility.js";
import { lookUpGroupCodes } from "./look-up-group-codes.js";
import { resolveBatchGroups } from "./resolve-batch-groups.js";
import type { AddOptionsProject } from "./resolve-targets.js";
import { writeBatchCollections } from "./write-batch-collections.js";

export type { AddOptionsDeps } from "./add-options-deps.js";
export type { BatchRequest } from "./batch-request.js";
export type { VisibilityCheck } from "./check-pim-visibility.js";

export interface BatchReport {
  /** Every request with an outcome, rejected ones included. */
  readonly outcomes: ReadonlyMap<string, AddOptionsOutcome>;
  /** Requests left without an outcome and why: they run again (their writes so far are in the state). */
  readonly undecided: ReadonlyMap<string, Error>;
  /** add-options and update-options calls sent, refused ones included. */
  readonly serviceCalls: number;
  readonly requests: { readonly pim: RequestStats; readonly service: RequestStats };
}

/**
 * Carries out a batch of add-options requests of one project, the first one being the job that
 * runs it (its `merged_into` is null, the others' its id), with as few upstream requests as the
 * requests allow: per attribute one PIM check for every pending name, per collection one
 * add-options call (and one update-options call) carrying every option it lacks. The safety rules
 * of a single request hold for each: see runAddOptions' comments.
 *
 * A request that cannot succeed (not allowlisted, unknown attribute, a label locale the project
 * lacks, no collection, or an option the service refuses) gets a `rejected` outcome and never
 * affects the others. The steps, in order: resolve the requests' collections (resolveBatchGroups),
 * the PIM check (lookUpGroupCodes), the service writes (writeBatchCollections), the PIM's
 * visibility check (checkPimVisibility), the outcomes (assembleOutcomes); each request's fate
 * is kept in one BatchBook they all share.
 */
export async function runAddOptionsBatch(
  deps: AddOptionsDeps,
  project: AddOptionsProject,
  requests: readonly BatchRequest[],
  options: { readonly signal?: AbortSignal | undefined; readonly visibility: VisibilityCheck },
): Promise<BatchReport> {
  const { signal } = options;
  const now = deps.now ?? Date.now;
  const cliRun = cliOrigin("add-options", new Date(now()));
  const originOf = deps.originOf ?? (() => cliRun);
  const pimBefore = { ...deps.pim.stats };
  const serviceBefore = { ...deps.service.stats };
  const requestStats = (): BatchReport["requests"] => ({
    pim: statsSince(pimBefore, deps.pim.stats),
    service: statsSince(serviceBefore, deps.service.stats),
  });
  const projectId = requests[0]?.request.project;
  if (projectId === undefined) return { outcomes: new Map(), undecided: new Map(), serviceCalls: 0, requests: requestStats() };

  const book = new BatchBook();
  const catalog =
    deps.catalog ??
    uncachedCatalog({
      readStructure: (sig) => deps.pim.readStructure(sig),
      listCollections: (p, sig) => deps.service.listCollections(p, sig),
    });
  const { groups, idByName } = await resolveBatchGroups({ catalog, project, projectId, requests, book, signal });
  const codesOf = await lookUpGroupCodes(deps.pim, groups.values(), signal);
  // What earlier runs of these requests were adding: an option they added that this run finds
  // present is still theirs (docs/worker.md, "Add-options jobs").
  const earlier: IntentsByRequest = deps.intents
    ? await deps.intents.read(
        projectId,
        [...groups.values()].flatMap((group) => group.requests.map(({ id }) => id)),
      )
    : new Map();
  const serviceCalls = await writeBatchCollections({
    deps,
    projectId,
    book,
    earlier,
    now,
    originOf,
    signal,
    groups: groups.values(),
    idByName,
    codesOf,
  });

  book.decideReliances();
  await checkPimVisibility({ pim: deps.pim, groups: groups.values(), codesOf, book, visibility: options.visibility, signal });

  const outcomes = assembleOutcomes({
    requests: requests.map(({ id, request }) => ({ id, project: request.project, attribute: request.attribute })),
    rejected: book.rejected,
    undecided: new Set(book.undecided.keys()),
    collections: book.collections,
    missing: new Map([...groups].map(([attribute, group]) => [attribute, group.missing] as const)),
  });
  return { outcomes, undecided: book.undecided, serviceCalls, requests: requestStats() };
}
