import type { ServiceLabels, ServiceOption } from "../../core/domain/option-collection.js";

export interface MergeRequest {
  readonly id: string;
  readonly options: readonly { readonly name: string; readonly label: ServiceLabels }[];
}

/** What one request brings to a collection's merged writes. */
export interface Contribution {
  readonly request: string;
  /** Options the PIM lacks: sent with add-options (which creates them in the PIM too). */
  readonly viaAdd: readonly ServiceOption[];
  /** Options the PIM has already: sent with update-options, under the PIM's spelling. */
  readonly viaUpsert: readonly ServiceOption[];
}

export interface MergedCollection {
  readonly collection: string;
  /** In queue order; requests that bring nothing are left out. */
  readonly contributions: readonly Contribution[];
  /** Per request, what it adds here and what it finds present (under the PIM's spelling when the PIM has it). */
  readonly perRequest: ReadonlyMap<string, { readonly added: readonly string[]; readonly skipped: readonly string[] }>;
  /** Request → the earlier requests of the batch that add an option it finds "present". */
  readonly reliesOn: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * One collection's share of a batch of requests for the same attribute, in queue order. Codes
 * are compared case-insensitively (the PIM's rule, see derive/code-key.ts): an option the
 * collection is known to hold is skipped, the first request that asks for a missing option adds
 * it with its label, and later requests find it present. Pure.
 *
 * An option the collection holds that an earlier run of the same request was adding (a run
 * killed after the write, or an attempt that failed or was refused later) is that request's
 * addition: listed as `added`, with nothing written.
 *
 * @param known  names the collection is known to hold (state plus recorded additions)
 * @param pimCodes  the PIM's own spelling of each option it has, by lower-cased name
 * @param addedEarlier  per request, the lower-cased names its earlier runs were adding here
 */
export function mergeCollectionAdditions(
  collection: string,
  known: Iterable<string>,
  requests: readonly MergeRequest[],
  pimCodes: ReadonlyMap<string, string>,
  addedEarlier: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): MergedCollection {
  const existing = new Set([...known].map((name) => name.toLowerCase()));
  const addedBy = new Map<string, string>();
  const contributions: Contribution[] = [];
  const perRequest = new Map<string, { added: string[]; skipped: string[] }>();
  const reliesOn = new Map<string, Set<string>>();
  for (const request of requests) {
    const added: string[] = [];
    const skipped: string[] = [];
    const viaAdd: ServiceOption[] = [];
    const viaUpsert: ServiceOption[] = [];
    for (const option of request.options) {
      const pimCode = pimCodes.get(option.name.toLowerCase());
      const name = pimCode ?? option.name;
      const key = name.toLowerCase();
      const owner = addedBy.get(key);
      if (existing.has(key) && addedEarlier.get(request.id)?.has(key) === true) {
        added.push(name);
        continue;
      }
      if (existing.has(key) || owner !== undefined) {
        skipped.push(name);
        if (owner !== undefined && owner !== request.id) reliesOn.set(request.id, (reliesOn.get(request.id) ?? new Set()).add(owner));
        continue;
      }
      addedBy.set(key, request.id);
      added.push(name);
      (pimCode === undefined ? viaAdd : viaUpsert).push({ name, label: option.label });
    }
    const previous = perRequest.get(request.id);
    perRequest.set(request.id, { added: [...(previous?.added ?? []), ...added], skipped: [...(previous?.skipped ?? []), ...skipped] });
    if (viaAdd.length > 0 || viaUpsert.length > 0) contributions.push({ request: request.id, viaAdd, viaUpsert });
  }
  return { collection, contributions, perRequest, reliesOn };
}
