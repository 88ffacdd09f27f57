import type { CollectionSpec } from "../../core/domain/option-collection.js";
import type { RunOrigin } from "../../stores/history/run-origin.js";
import type { AddOptionsDeps } from "./add-options-deps.js";
import type { IntentsByRequest } from "./add-options-intent-store.js";
import type { AttributeGroup } from "./attribute-group.js";
import type { BatchBook } from "./batch-book.js";
import type { PimCodesByAttribute } from "./look-up-group-codes.js";
import { mergeCollectionAdditions } from "./merge-collection-additions.js";
import { writeMergedCollection } from "./write-merged-collection.js";

interface WriteContext {
  readonly deps: AddOptionsDeps;
  readonly projectId: number;
  readonly book: BatchBook;
  /** What earlier runs of these requests were adding, per request and collection. */
  readonly earlier: IntentsByRequest;
  readonly now: () => number;
  readonly originOf: (request: string) => RunOrigin;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The service write step: every collection of every group, one after another, gets one merged
 * write of what its requests lack (writeMergedCollection). Each request's share of each
 * collection, and each refusal, goes into `book`. Returns the service calls sent.
 */
export async function writeBatchCollections(
  context: WriteContext & {
    readonly groups: Iterable<AttributeGroup>;
    readonly idByName: ReadonlyMap<string, number>;
    readonly codesOf: PimCodesByAttribute;
  },
): Promise<number> {
  let serviceCalls = 0;
  for (const group of context.groups) {
    const pimCodes = context.codesOf.get(group.attribute.code) ?? new Map<string, string>();
    for (const spec of group.present) {
      const collectionId = context.idByName.get(spec.name);
      if (collectionId === undefined) continue;
      serviceCalls += await writeCollection(context, group, spec, collectionId, pimCodes);
    }
  }
  return serviceCalls;
}

/** One collection of a group: what each request still in the batch adds to it, written merged. */
async function writeCollection(
  context: WriteContext,
  group: AttributeGroup,
  spec: CollectionSpec,
  collectionId: number,
  pimCodes: ReadonlyMap<string, string>,
): Promise<number> {
  const { deps, projectId, book } = context;
  const lastWritten = await deps.state.read(projectId, spec.name);
  // What this collection is known to hold: what pim-sync wrote, plus what add-options added
  // (for a collection not synced yet, the additions are all that is known).
  const recorded = await deps.state.recentlyAdded(projectId, spec.name, 0);
  const active = group.requests.filter(({ id }) => !book.isRejected(id));
  const addedEarlier = new Map(active.map(({ id }) => [id, context.earlier.get(id)?.get(spec.name) ?? new Set<string>()] as const));
  const merged = mergeCollectionAdditions(
    spec.name,
    [...recorded.keys(), ...(lastWritten?.keys() ?? [])],
    active.map(({ id, request }) => ({ id, options: request.options })),
    pimCodes,
    addedEarlier,
  );
  for (const { id } of active) {
    const mine = merged.perRequest.get(id);
    book.recordCollection(id, { collection: spec.name, added: [...(mine?.added ?? [])], skipped: [...(mine?.skipped ?? [])] });
  }
  for (const [id, owners] of merged.reliesOn) book.relyOn(id, owners);

  const written = await writeMergedCollection({
    deps,
    projectId,
    collection: spec.name,
    collectionId,
    hasState: lastWritten !== null,
    contributions: merged.contributions,
    isRejected: (id) => book.isRejected(id),
    now: context.now,
    signal: context.signal,
    origin: context.originOf,
  });
  for (const refusal of written.refused) {
    book.reject(refusal.request, [
      `the service refused ${refusal.call} of ${refusal.names.join(", ")} for '${spec.name}': ${refusal.reason}`,
    ]);
    book.dropUnsent(refusal.request, spec.name, refusal.unsent);
  }
  deps.logger.info({ collection: spec.name, requests: active.length, contributions: merged.contributions.length }, "options added");
  return written.calls;
}
