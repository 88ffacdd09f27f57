import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { ConfigServiceClient } from "../config-service/config-service-client.js";
import { deriveCollectionSpecs, pimLocaleToServiceLocale, resolveProjectScope, type NamingTemplates, type ProjectFilters } from "../derive/index.js";
import type { CollectionSpec } from "../domain/option-collection.js";
import type { PimAttribute, PimCatalogStructure } from "../domain/pim-catalog.js";
import { uncachedCatalog, type CatalogCache } from "./catalog-cache.js";
import type { PimClient } from "../pim/pim-client.js";
import type { StateStore } from "../state/state-store.js";
import { statsSince, type RequestStats } from "../http/request-stats.js";
import { AddOptionsRejected } from "./add-options-rejected.js";
import type { AddOptionsRequest } from "./add-options-request.js";
import { planAdditions } from "./plan-additions.js";

export interface AddOptionsDeps {
  readonly pim: Pick<PimClient, "readStructure" | "getAttributeOption" | "getRecord" | "stats">;
  readonly service: Pick<ConfigServiceClient, "listCollections" | "addOptions" | "updateOptions" | "stats">;
  readonly state: StateStore;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Shared by the jobs of a worker; without it every run reads the structure and the list. */
  readonly catalog?: CatalogCache;
}

export interface AddOptionsProject {
  readonly allowedAttributes: readonly string[];
  readonly filters: ProjectFilters;
  readonly naming: NamingTemplates;
}

export interface AddOptionsReport {
  readonly project: number;
  readonly attribute: string;
  readonly collections: readonly { readonly collection: string; readonly added: readonly string[]; readonly skipped: readonly string[] }[];
  /** Collections the attribute derives that do not exist in the service. */
  readonly missing: readonly string[];
  readonly requests: { readonly pim: RequestStats; readonly service: RequestStats };
}

/** The PIM's lists and reads are eventually consistent: how long to wait for the options to show. */
export interface VisibilityCheck {
  readonly attempts: number;
  readonly delayMs: number;
}

export const DEFAULT_VISIBILITY_CHECK: VisibilityCheck = { attempts: 5, delayMs: 1_000 };

/** The options reached the service but the PIM does not show them (yet): worth retrying. */
export class AddedOptionsNotInPim extends Error {
  constructor(readonly names: readonly string[], attribute: string) {
    super(`the PIM does not show option(s) ${names.join(", ")} of '${attribute}' after they were added`);
    this.name = "AddedOptionsNotInPim";
  }
}

const ADDABLE_KINDS: ReadonlySet<CollectionSpec["kind"]> = new Set(["select", "reference-entity"]);

/**
 * Adds options to every collection derived from one attribute through the service's
 * add-options endpoint (which creates them in the PIM too), never re-sending an existing option;
 * then records them as written (so the next sync does not rewrite them), remembers them as
 * recently added (so a sync that reads a lagging PIM list does not delete them), and checks the
 * PIM shows them. Every rejection happens before the first write.
 */
export async function runAddOptions(
  deps: AddOptionsDeps,
  project: AddOptionsProject,
  request: AddOptionsRequest,
  options: { readonly signal?: AbortSignal; readonly visibility?: VisibilityCheck } = {},
): Promise<AddOptionsReport> {
  const { signal } = options;
  const now = deps.now ?? Date.now;
  const log = deps.logger.child({ project: request.project, attribute: request.attribute });
  const pimBefore = { ...deps.pim.stats };
  const serviceBefore = { ...deps.service.stats };
  if (!project.allowedAttributes.includes(request.attribute)) {
    throw new AddOptionsRejected([`attribute '${request.attribute}' is not in allowed_options_for_pim_attribute_addition of project ${request.project}`]);
  }

  const catalog = deps.catalog ?? uncachedCatalog({ readStructure: (sig) => deps.pim.readStructure(sig), listCollections: (p, sig) => deps.service.listCollections(p, sig) });
  // Checked on cached data first; anything that would reject the request is checked again on a
  // fresh read, so a stale cache never rejects what the PIM and the service now have.
  let resolved = resolveTargets(await catalog.structure({ fresh: false, signal }), project, request);
  if (resolved.rejection) resolved = resolveTargets(await catalog.structure({ fresh: true, signal }), project, request);
  if (resolved.rejection) throw new AddOptionsRejected(resolved.rejection);
  const { specs, attribute } = resolved;

  let idByName = new Map((await catalog.collections(request.project, { fresh: false, signal })).map((c) => [c.name, c.id] as const));
  if (specs.some((spec) => !idByName.has(spec.name))) {
    idByName = new Map((await catalog.collections(request.project, { fresh: true, signal })).map((c) => [c.name, c.id] as const));
  }
  const present = specs.filter((spec) => idByName.has(spec.name));
  const missing = specs.filter((spec) => !idByName.has(spec.name)).map((spec) => spec.name);
  if (present.length === 0) throw new AddOptionsRejected([`no collection of '${request.attribute}' exists in the service (expected ${missing.join(", ")})`]);

  const pimHas = pimLookup(deps, request.attribute, attribute.referenceDataName, specs[0]?.kind ?? "select", signal);
  // Asked once, before any write. An option the PIM already has is either one an earlier run of
  // this job added (its answer lost, so it is not in the state) or one created PIM-side: the
  // collection gets it through update-options, an idempotent upsert, under the PIM's own
  // spelling of the code (the PIM compares codes case-insensitively: a request for `Teal` when
  // the PIM has `teal` must write `teal`, or the next sync would see two options). add-options
  // is kept for options the PIM lacks, and is never sent twice for the same option.
  const pimCodes = (await pimHas.lookUp(request.options.map((option) => option.name))).present;
  const requested = request.options.map((option) => ({ name: pimCodes.get(option.name) ?? option.name, label: option.label }));
  const outcomes: { collection: string; added: string[]; skipped: string[] }[] = [];
  for (const spec of present) {
    const lastWritten = await deps.state.read(request.project, spec.name);
    // What this collection is known to hold: what pim-sync wrote, plus what add-options added
    // (for a collection not synced yet, the additions are all that is known).
    const recorded = await deps.state.recentlyAdded(request.project, spec.name, 0);
    const known = new Map([...recorded, ...(lastWritten ?? [])]);
    const additions = planAdditions(spec.name, known, requested);
    const id = idByName.get(spec.name);
    if (additions.add.length > 0 && id !== undefined) {
      const viaAdd = additions.add.filter((option) => !pimCodes.has(option.name));
      const viaUpsert = additions.add.filter((option) => pimCodes.has(option.name));
      if (viaAdd.length > 0) await deps.service.addOptions(id, viaAdd, signal);
      if (viaUpsert.length > 0) await deps.service.updateOptions(id, { upsert_options: viaUpsert, delete_options: [], delete_all: false }, signal);
      // Recorded once the service accepted them: a retry of this job skips them. A collection
      // with no state yet keeps none, so its first sync still replaces it (keeping these).
      if (lastWritten !== null) await deps.state.update(request.project, spec.name, additions.add, []);
      await deps.state.recordAdded(request.project, spec.name, additions.add, now());
      log.info({ collection: spec.name, added: viaAdd.length, upserted: viaUpsert.length, skipped: additions.skipped.length }, "options added");
    }
    outcomes.push({ collection: spec.name, added: additions.add.map((option) => option.name), skipped: [...additions.skipped] });
  }

  await waitUntilPimShows(pimHas, request, options.visibility ?? DEFAULT_VISIBILITY_CHECK, signal);
  return {
    project: request.project,
    attribute: request.attribute,
    collections: outcomes,
    missing,
    requests: { pim: statsSince(pimBefore, deps.pim.stats), service: statsSince(serviceBefore, deps.service.stats) },
  };
}

type Targets =
  | { readonly rejection: string[]; readonly specs?: undefined; readonly attribute?: undefined }
  | { readonly rejection?: undefined; readonly specs: CollectionSpec[]; readonly attribute: PimAttribute };

/** The collections an add-options request targets, or every reason it must be rejected. */
function resolveTargets(structure: PimCatalogStructure, project: AddOptionsProject, request: AddOptionsRequest): Targets {
  const attribute = structure.attributes.find((candidate) => candidate.code === request.attribute);
  if (!attribute) return { rejection: [`attribute '${request.attribute}' does not exist in the PIM (or is not a select or reference-entity attribute)`] };
  const { scope, problems } = resolveProjectScope(structure, project.filters);
  if (problems.length > 0) return { rejection: problems };
  const specs = deriveCollectionSpecs(structure, scope, project.naming).specs.filter((spec) => spec.attribute === request.attribute);
  if (specs.length === 0 || specs.some((spec) => !ADDABLE_KINDS.has(spec.kind))) {
    return { rejection: [`attribute '${request.attribute}' (${attribute.type}) is not a select or reference-entity attribute with collections in this project`] };
  }
  const projectLocales = new Set(scope.locales.map(pimLocaleToServiceLocale));
  const badLocales = new Set(request.options.flatMap((option) => Object.keys(option.label).filter((key) => !projectLocales.has(key))));
  if (badLocales.size > 0) {
    return { rejection: [`label locale(s) ${[...badLocales].join(", ")} are not among the project's locales (${[...projectLocales].join(", ")})`] };
  }
  return { specs, attribute };
}

/** Which options the PIM has: attribute options, or records for reference-entity attributes. */
function pimLookup(deps: AddOptionsDeps, attribute: string, referenceEntity: string | null, kind: CollectionSpec["kind"], signal?: AbortSignal) {
  const codeInPim = async (name: string): Promise<string | null> =>
    kind === "reference-entity" && referenceEntity !== null
      ? ((await deps.pim.getRecord(referenceEntity, name, signal))?.code ?? null)
      : ((await deps.pim.getAttributeOption(attribute, name, signal))?.code ?? null);
  return {
    /** `present` maps each name the PIM has to the PIM's own spelling of it (and itself). */
    async lookUp(names: readonly string[]): Promise<{ present: Map<string, string>; missing: string[] }> {
      const found = await Promise.all(names.map(codeInPim));
      const present = new Map<string, string>();
      const missing: string[] = [];
      names.forEach((name, index) => {
        const code = found[index];
        if (code === null || code === undefined) {
          missing.push(name);
          return;
        }
        present.set(name, code);
        present.set(code, code);
      });
      return { present, missing };
    },
  };
}

async function waitUntilPimShows(pim: ReturnType<typeof pimLookup>, request: AddOptionsRequest, check: VisibilityCheck, signal?: AbortSignal): Promise<void> {
  let pending = request.options.map((option) => option.name);
  for (let attempt = 1; ; attempt += 1) {
    pending = (await pim.lookUp(pending)).missing;
    if (pending.length === 0) return;
    if (attempt >= check.attempts) throw new AddedOptionsNotInPim(pending, request.attribute);
    await sleep(check.delayMs, undefined, { signal });
  }
}
