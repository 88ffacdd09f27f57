import type { ServiceOption } from "../../core/domain/option-collection.js";
import { HttpError } from "../../infra/http/http-error.js";
import type { RunOrigin } from "../../stores/history/run-origin.js";
import type { AddOptionsDeps } from "./add-options-deps.js";
import { chunkBySize } from "./chunk-by-size.js";
import { isolateRejections } from "./isolate-rejections.js";
import type { Contribution } from "./merge-collection-additions.js";
import { MERGE_CAPS } from "./merge-caps.js";
import { recordAddedHistory, type AddOptionsCall } from "./record-added-history.js";

/** A request's part of a write that the service refused as content. */
export interface Refusal {
  readonly request: string;
  readonly call: AddOptionsCall;
  readonly names: readonly string[];
  /** Every name of the request's contribution here that no accepted write carried. */
  readonly unsent: readonly string[];
  readonly reason: string;
}

/**
 * Statuses that mean "this content is refused" (as opposed to "you may not" or "not now"): a
 * merged write refused with one of them is split to find the request(s) at fault.
 */
const CONTENT_REFUSALS: ReadonlySet<number> = new Set([400, 409, 413, 422]);

/**
 * A write that certainly changed nothing: the service answered it with a 4xx (it validates a
 * whole request before applying it, as isolateRejections relies on), or it was never sent. A 5xx,
 * a timeout or a dropped connection may have been applied: its intents are kept.
 */
function certainlyUnapplied(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  if (error.code === "HTTP_FOREIGN_ORIGIN") return true;
  return error.code === "HTTP_STATUS" && error.status !== undefined && error.status >= 400 && error.status < 500;
}

function refusalOf(error: unknown): string | null {
  return error instanceof HttpError && error.code === "HTTP_STATUS" && error.status !== undefined && CONTENT_REFUSALS.has(error.status)
    ? error.message
    : null;
}

/**
 * One collection's merged writes: the options the PIM lacks through add-options, then those it
 * has through update-options, each in chunks of at most `MERGE_CAPS.maxOptionsPerCall`; a chunk
 * the service refuses as content is split until the refused requests are found. A request
 * refused by the add-options call sends nothing more. Each write is announced (intents) before
 * it is sent, and forgotten for a request the service refuses; each accepted write is recorded
 * in the history, then in the state at once, so a retry skips it and still reports it as this request's.
 */
export async function writeMergedCollection(args: {
  readonly deps: AddOptionsDeps;
  readonly projectId: number;
  readonly collection: string;
  readonly collectionId: number;
  /** A collection with no state yet keeps none, so its first sync still replaces it (keeping these). */
  readonly hasState: boolean;
  readonly contributions: readonly Contribution[];
  /** Requests refused before this collection (by another collection of the batch). */
  readonly isRejected: (request: string) => boolean;
  readonly now: () => number;
  readonly signal?: AbortSignal | undefined;
  readonly origin: (request: string) => RunOrigin;
}): Promise<{ readonly calls: number; readonly refused: readonly Refusal[] }> {
  const { deps, projectId, collection, collectionId, signal } = args;
  const writes: { readonly call: AddOptionsCall; readonly options: (c: Contribution) => readonly ServiceOption[] }[] = [
    { call: "add-options", options: (c) => c.viaAdd },
    { call: "update-options", options: (c) => c.viaUpsert },
  ];
  const refused: Refusal[] = [];
  const refusedHere = new Set<string>();
  let calls = 0;
  for (const write of writes) {
    const contributions = args.contributions.filter(
      (c) => write.options(c).length > 0 && !args.isRejected(c.request) && !refusedHere.has(c.request),
    );
    for (const chunk of chunkBySize(contributions, (c) => write.options(c).length, MERGE_CAPS.maxOptionsPerCall)) {
      const isolated = await isolateRejections(
        chunk,
        async (part) => {
          const sent = part.flatMap(write.options);
          const intents = new Map(part.map((c) => [c.request, write.options(c).map((o) => o.name)] as const));
          await deps.intents?.record(projectId, collection, intents);
          calls += 1;
          try {
            if (write.call === "add-options") await deps.service.addOptions(collectionId, sent, signal);
            else await deps.service.updateOptions(collectionId, { upsert_options: sent, delete_options: [], delete_all: false }, signal);
          } catch (error) {
            // A refused part is re-announced when its halves are sent (isolateRejections).
            if (certainlyUnapplied(error)) await deps.intents?.forget(projectId, collection, intents);
            throw error;
          }
          // In the history before the state, as a sync records a chunk: a worker killed between
          // the two leaves the write in the history; its retry, which the state does not spare,
          // may record it again, but no accepted write is ever missing from the history.
          const parts = part.map((c) => ({ request: c.request, options: write.options(c) }));
          await recordAddedHistory({ deps, project: projectId, collection, parts, call: write.call, originOf: args.origin, now: args.now });
          if (args.hasState) await deps.state.update(projectId, collection, sent, []);
          await deps.state.recordAdded(projectId, collection, sent, args.now());
        },
        refusalOf,
      );
      for (const { item, reason } of isolated.rejected) {
        refusedHere.add(item.request);
        const names = write.options(item).map((o) => o.name);
        // A refused write changes nothing (its intents are gone); after a refused add-options the
        // request's upserts are not sent.
        const unsent = write.call === "add-options" ? [...names, ...item.viaUpsert.map((o) => o.name)] : names;
        refused.push({ request: item.request, call: write.call, names, unsent, reason });
      }
    }
  }
  return { calls, refused };
}
