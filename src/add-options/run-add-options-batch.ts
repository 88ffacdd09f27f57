import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { ConfigServiceClient } from "../config-service/config-service-client.js";
import type { CollectionSpec, ServiceOption } from "../domain/option-collection.js";
import type { PimAttribute } from "../domain/pim-catalog.js";
import { HttpError } from "../http/http-error.js";
import { statsSince, type RequestStats } from "../http/request-stats.js";
import type { PimClient } from "../pim/pim-client.js";
import type { StateStore } from "../state/state-store.js";
import type { HistoryGroup, OptionChange } from "../history/history-batch.js";
import type { HistoryStore } from "../history/history-store.js";
import { cliOrigin, type RunOrigin } from "../history/run-origin.js";
import type { AddOptionsIntentStore, IntentsByRequest } from "./add-options-intent-store.js";
import type { AddOptionsOutcome, CollectionOutcome } from "./add-options-outcome.js";
import { assembleOutcomes } from "./assemble-outcomes.js";
import type { AddOptionsRequest } from "./add-options-request.js";
import { uncachedCatalog, type CatalogCache } from "./catalog-cache.js";
import { chunkBySize } from "./chunk-by-size.js";
import { isolateRejections } from "./isolate-rejections.js";
import { mergeCollectionAdditions, type Contribution } from "./merge-collection-additions.js";
import { MERGE_CAPS } from "./merge-caps.js";
import { lookUpPimCodes, type PimOptionReader } from "./pim-option-lookup.js";
import { resolveTargets, type AddOptionsProject, type Targets } from "./resolve-targets.js";
import { PimSyncError } from "../errors/pim-sync-error.js";

export interface AddOptionsDeps {
  readonly pim: PimOptionReader & Pick<PimClient, "readStructure" | "stats">;
  readonly service: Pick<ConfigServiceClient, "listCollections" | "addOptions" | "updateOptions" | "stats">;
  readonly state: StateStore;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Shared by the jobs of a worker; without it every run reads the structure and the list. */
  readonly catalog?: CatalogCache;
  /**
   * Where each request's writes are announced before they are sent, so a later run of it lists
   * what an earlier one added (the worker's jobs, which are retried); without it an outcome
   * lists only what its own run added.
   */
  readonly intents?: AddOptionsIntentStore;
  /** Where each accepted write is recorded, as `added` (src/history/); none: not recorded. */
  readonly history?: HistoryStore;
  /** The job and trigger of a request of the batch, by its id (the worker's job refs); a CLI run's own by default. */
  readonly originOf?: (requestId: string) => RunOrigin;
}

/**
 * The PIM's lists and reads are eventually consistent: how long to wait for the options to show
 * (`add_options.visibility_attempts` and `visibility_delay_ms`).
 */
export interface VisibilityCheck {
  readonly attempts: number;
  readonly delayMs: number;
}

/** The options reached the service but the PIM does not show them (yet): worth retrying. */
export class AddedOptionsNotInPim extends PimSyncError {
  constructor(readonly names: readonly string[], attribute: string) {
    super(`the PIM does not show option(s) ${names.join(", ")} of '${attribute}' after they were added`, { code: "ADDED_OPTIONS_NOT_VISIBLE", retryable: true });
    this.name = "AddedOptionsNotInPim";
  }
}

/** A request found an option "present" because another request of its batch added it, and the service refused that one. */
export class ReliedOnRefusedRequest extends PimSyncError {
  constructor(readonly requests: readonly string[]) {
    super(`an option this request needs was to come from request(s) ${requests.join(", ")} of the same batch, which the service refused; it runs again on its own`, { code: "RELIED_ON_REFUSED_REQUEST", retryable: true });
    this.name = "ReliedOnRefusedRequest";
  }
}

/** One request of a batch: its job's id and its (validated) data. */
export interface BatchRequest {
  readonly id: string;
  readonly request: AddOptionsRequest;
}

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
  return error instanceof HttpError && error.code === "HTTP_STATUS" && error.status !== undefined && CONTENT_REFUSALS.has(error.status) ? error.message : null;
}

interface AttributeGroup {
  readonly attribute: PimAttribute;
  readonly kind: CollectionSpec["kind"];
  readonly present: readonly CollectionSpec[];
  readonly missing: readonly string[];
  readonly requests: BatchRequest[];
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
 * affects the others.
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
  const rejected = new Map<string, string[]>();
  const reject = (id: string, reasons: readonly string[]): void => void (rejected.has(id) || rejected.set(id, [...reasons]));

  for (const { id, request } of requests) {
    if (!project.allowedAttributes.includes(request.attribute)) {
      reject(id, [`attribute '${request.attribute}' is not in allowed_options_for_pim_attribute_addition of project ${request.project}`]);
    }
  }
  const catalog = deps.catalog ?? uncachedCatalog({ readStructure: (sig) => deps.pim.readStructure(sig), listCollections: (p, sig) => deps.service.listCollections(p, sig) });
  const pending = (): BatchRequest[] => requests.filter(({ id }) => !rejected.has(id));
  const projectId = requests[0]?.request.project;
  if (projectId === undefined) return { outcomes: new Map(), undecided: new Map(), serviceCalls: 0, requests: { pim: statsSince(pimBefore, deps.pim.stats), service: statsSince(serviceBefore, deps.service.stats) } };

  // Checked on cached data first; anything that would reject a request is checked again on a
  // fresh read, so a stale cache never rejects what the PIM and the service now have.
  const targets = new Map<string, Targets>();
  let structure = await catalog.structure({ fresh: false, signal });
  for (const { id, request } of pending()) targets.set(id, resolveTargets(structure, project, request));
  if ([...targets.values()].some((target) => target.rejection)) {
    structure = await catalog.structure({ fresh: true, signal });
    for (const { id, request } of pending()) if (targets.get(id)?.rejection) targets.set(id, resolveTargets(structure, project, request));
  }
  for (const [id, target] of targets) if (target.rejection) reject(id, target.rejection);

  const specsOf = (id: string): CollectionSpec[] => targets.get(id)?.specs ?? [];
  let idByName = new Map((await catalog.collections(projectId, { fresh: false, signal })).map((c) => [c.name, c.id] as const));
  if (pending().some(({ id }) => specsOf(id).some((spec) => !idByName.has(spec.name)))) {
    idByName = new Map((await catalog.collections(projectId, { fresh: true, signal })).map((c) => [c.name, c.id] as const));
  }
  const groups = new Map<string, AttributeGroup>();
  for (const batchRequest of pending()) {
    const target = targets.get(batchRequest.id);
    if (!target?.specs) continue;
    const present = target.specs.filter((spec) => idByName.has(spec.name));
    const missing = target.specs.filter((spec) => !idByName.has(spec.name)).map((spec) => spec.name);
    if (present.length === 0) {
      reject(batchRequest.id, [`no collection of '${batchRequest.request.attribute}' exists in the service (expected ${missing.join(", ")})`]);
      continue;
    }
    const group = groups.get(batchRequest.request.attribute) ?? { attribute: target.attribute, kind: target.specs[0]?.kind ?? "select", present, missing, requests: [] };
    group.requests.push(batchRequest);
    groups.set(batchRequest.request.attribute, group);
  }

  // Asked once per attribute, before any write. An option the PIM already has is either one an
  // earlier run added (its answer lost, so it is not in the state) or one created PIM-side: the
  // collection gets it through update-options, an idempotent upsert, under the PIM's own
  // spelling of the code (the PIM compares codes case-insensitively: a request for `Teal` when
  // the PIM has `teal` must write `teal`, or the next sync would see two options). add-options
  // is kept for options the PIM lacks, and is never sent twice for the same option.
  const codesOf = new Map(
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const names = group.requests.flatMap(({ request }) => request.options.map((option) => option.name));
        return [group.attribute.code, await lookUpPimCodes(deps.pim, targetOf(group), names, signal)] as const;
      }),
    ),
  );

  // What earlier runs of these requests were adding: an option they added that this run finds
  // present is still theirs (docs/worker.md, "Add-options jobs").
  const earlier: IntentsByRequest = deps.intents ? await deps.intents.read(projectId, [...groups.values()].flatMap((group) => group.requests.map(({ id }) => id))) : new Map();

  const collectionsOf = new Map<string, CollectionOutcome[]>();
  const reliesOn = new Map<string, Set<string>>();
  let serviceCalls = 0;
  for (const group of groups.values()) {
    const pimCodes = codesOf.get(group.attribute.code) ?? new Map<string, string>();
    for (const spec of group.present) {
      const collectionId = idByName.get(spec.name);
      if (collectionId === undefined) continue;
      const lastWritten = await deps.state.read(projectId, spec.name);
      // What this collection is known to hold: what pim-sync wrote, plus what add-options added
      // (for a collection not synced yet, the additions are all that is known).
      const recorded = await deps.state.recentlyAdded(projectId, spec.name, 0);
      const active = group.requests.filter(({ id }) => !rejected.has(id));
      const addedEarlier = new Map(active.map(({ id }) => [id, earlier.get(id)?.get(spec.name) ?? new Set<string>()] as const));
      const merged = mergeCollectionAdditions(spec.name, [...recorded.keys(), ...(lastWritten?.keys() ?? [])], active.map(({ id, request }) => ({ id, options: request.options })), pimCodes, addedEarlier);
      for (const { id } of active) {
        const mine = merged.perRequest.get(id);
        collectionsOf.set(id, [...(collectionsOf.get(id) ?? []), { collection: spec.name, added: [...(mine?.added ?? [])], skipped: [...(mine?.skipped ?? [])] }]);
      }
      for (const [id, owners] of merged.reliesOn) reliesOn.set(id, new Set([...(reliesOn.get(id) ?? []), ...owners]));

      const written = await writeMergedCollection({
        deps,
        projectId,
        collection: spec.name,
        collectionId,
        hasState: lastWritten !== null,
        contributions: merged.contributions,
        isRejected: (id) => rejected.has(id),
        now,
        signal,
        origin: originOf,
      });
      serviceCalls += written.calls;
      for (const refusal of written.refused) {
        reject(refusal.request, [`the service refused ${refusal.call} of ${refusal.names.join(", ")} for '${spec.name}': ${refusal.reason}`]);
        // What was not written is not added; what an accepted write (or an earlier run) added stays.
        const unsent = new Set(refusal.unsent.map((name) => name.toLowerCase()));
        const outcomes = collectionsOf.get(refusal.request) ?? [];
        collectionsOf.set(refusal.request, outcomes.map((o) => (o.collection === spec.name ? { ...o, added: o.added.filter((name) => !unsent.has(name.toLowerCase())) } : o)));
      }
      deps.logger.info({ collection: spec.name, requests: active.length, contributions: merged.contributions.length }, "options added");
    }
  }

  const undecided = new Map<string, Error>();
  for (const [id, owners] of reliesOn) {
    const refused = [...owners].filter((owner) => rejected.has(owner));
    if (!rejected.has(id) && refused.length > 0) undecided.set(id, new ReliedOnRefusedRequest(refused));
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const pimCodes = codesOf.get(group.attribute.code) ?? new Map<string, string>();
      const spelled = (name: string): string => pimCodes.get(name.toLowerCase()) ?? name;
      const checked = group.requests.filter(({ id }) => !rejected.has(id) && !undecided.has(id));
      const notShown = await namesPimDoesNotShow(deps.pim, targetOf(group), checked.flatMap(({ request }) => request.options.map((o) => spelled(o.name))), options.visibility, signal);
      if (notShown.size === 0) return;
      for (const { id, request } of checked) {
        const names = request.options.map((o) => spelled(o.name)).filter((name) => notShown.has(name.toLowerCase()));
        if (names.length > 0) undecided.set(id, new AddedOptionsNotInPim(names, request.attribute));
      }
    }),
  );

  const outcomes = assembleOutcomes({
    requests: requests.map(({ id, request }) => ({ id, project: request.project, attribute: request.attribute })),
    rejected,
    undecided: new Set(undecided.keys()),
    collections: collectionsOf,
    missing: new Map([...groups].map(([attribute, group]) => [attribute, group.missing] as const)),
  });
  return { outcomes, undecided, serviceCalls, requests: { pim: statsSince(pimBefore, deps.pim.stats), service: statsSince(serviceBefore, deps.service.stats) } };
}

interface Refusal {
  readonly request: string;
  readonly call: "add-options" | "update-options";
  readonly names: readonly string[];
  /** Every name of the request's contribution here that no accepted write carried. */
  readonly unsent: readonly string[];
  readonly reason: string;
}

/**
 * One collection's merged writes: the options the PIM lacks through add-options, then those it
 * has through update-options, each in chunks of at most `MERGE_CAPS.maxOptionsPerCall`; a chunk
 * the service refuses as content is split until the refused requests are found. A request
 * refused by the add-options call sends nothing more. Each write is announced (intents) before
 * it is sent, and forgotten for a request the service refuses; each accepted write is recorded
 * in the state at once, so a retry skips it and still reports it as this request's.
 */
async function writeMergedCollection(args: {
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
  const writes: { readonly call: Refusal["call"]; readonly options: (c: Contribution) => readonly ServiceOption[] }[] = [
    { call: "add-options", options: (c) => c.viaAdd },
    { call: "update-options", options: (c) => c.viaUpsert },
  ];
  const refused: Refusal[] = [];
  const refusedHere = new Set<string>();
  let calls = 0;
  for (const write of writes) {
    const contributions = args.contributions.filter((c) => write.options(c).length > 0 && !args.isRejected(c.request) && !refusedHere.has(c.request));
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
          if (args.hasState) await deps.state.update(projectId, collection, sent, []);
          await deps.state.recordAdded(projectId, collection, sent, args.now());
          await recordAdded(deps, projectId, collection, part.map((c) => ({ request: c.request, options: write.options(c) })), write.call, args.origin);
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

/**
 * What one accepted add-options or update-options call adds to the history: each option `added`,
 * under the request that asked for it (one group per request). A history that cannot be written
 * is logged, not thrown: the write is made and in the state.
 */
async function recordAdded(
  deps: AddOptionsDeps,
  project: number,
  collection: string,
  parts: readonly { readonly request: string; readonly options: readonly ServiceOption[] }[],
  call: Refusal["call"],
  originOf: (request: string) => RunOrigin,
): Promise<void> {
  if (!deps.history) return;
  const at = new Date((deps.now ?? Date.now)()).toISOString();
  const reason = call === "add-options" ? "asked for through add-options (created in the PIM too)" : "asked for through add-options (the PIM already had it)";
  const batch: HistoryGroup[] = parts.map(({ request, options }) => {
    const origin = originOf(request);
    return {
      collection,
      kind: "added",
      reason,
      job: origin.job,
      trigger: origin.trigger,
      ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }),
      at,
      options: options.map((option): OptionChange => [option.name, null, option.label]),
    };
  });
  try {
    await deps.history.append(project, batch);
  } catch (error) {
    deps.logger.error({ collection, err: { message: (error as Error).message } }, "could not record added options in the change history");
  }
}

function targetOf(group: AttributeGroup): Parameters<typeof lookUpPimCodes>[1] {
  return { attribute: group.attribute.code, referenceEntity: group.attribute.referenceDataName, kind: group.kind === "reference-entity" ? "reference-entity" : "select" };
}

/** Lower-cased names the PIM still does not show after the visibility check's attempts. */
async function namesPimDoesNotShow(
  pim: PimOptionReader,
  target: Parameters<typeof lookUpPimCodes>[1],
  names: readonly string[],
  check: VisibilityCheck,
  signal?: AbortSignal,
): Promise<Set<string>> {
  let pending = [...new Set(names.map((name) => name.toLowerCase()))];
  for (let attempt = 1; ; attempt += 1) {
    const shown = await lookUpPimCodes(pim, target, pending, signal);
    pending = pending.filter((name) => !shown.has(name));
    if (pending.length === 0 || attempt >= check.attempts) return new Set(pending);
    await sleep(check.delayMs, undefined, { signal });
  }
}
