import type { CollectionSpec } from "../../core/domain/option-collection.js";
import type { AttributeGroup } from "./attribute-group.js";
import type { BatchBook } from "./batch-book.js";
import type { BatchRequest } from "./batch-request.js";
import type { CatalogCache } from "./catalog-cache.js";
import { resolveTargets, type AddOptionsProject, type Targets } from "./resolve-targets.js";

export interface BatchGroups {
  /** By attribute code, in the order of the requests. */
  readonly groups: ReadonlyMap<string, AttributeGroup>;
  /** The service's collection ids of the project, by name. */
  readonly idByName: ReadonlyMap<string, number>;
}

/**
 * The first step of a batch, before any write: each request's collections, grouped by attribute.
 * A request that cannot succeed (not allowlisted, unknown attribute, a label locale the project
 * lacks, no collection in the service) is rejected in `book`. Checked on cached data first;
 * anything that would reject a request is checked again on a fresh read, so a stale cache never
 * rejects what the PIM and the service now have.
 */
export async function resolveBatchGroups(args: {
  readonly catalog: CatalogCache;
  readonly project: AddOptionsProject;
  readonly projectId: number;
  readonly requests: readonly BatchRequest[];
  readonly book: BatchBook;
  readonly signal?: AbortSignal | undefined;
}): Promise<BatchGroups> {
  const { catalog, project, projectId, requests, book, signal } = args;
  for (const { id, request } of requests) {
    if (!project.allowedAttributes.includes(request.attribute)) {
      book.reject(id, [
        `attribute '${request.attribute}' is not in allowed_options_for_pim_attribute_addition of project ${request.project}`,
      ]);
    }
  }
  const pending = (): BatchRequest[] => requests.filter(({ id }) => !book.isRejected(id));

  const targets = new Map<string, Targets>();
  let structure = await catalog.structure({ fresh: false, signal });
  for (const { id, request } of pending()) targets.set(id, resolveTargets(structure, project, request));
  if ([...targets.values()].some((target) => target.rejection)) {
    structure = await catalog.structure({ fresh: true, signal });
    for (const { id, request } of pending()) if (targets.get(id)?.rejection) targets.set(id, resolveTargets(structure, project, request));
  }
  for (const [id, target] of targets) if (target.rejection) book.reject(id, target.rejection);

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
      book.reject(batchRequest.id, [
        `no collection of '${batchRequest.request.attribute}' exists in the service (expected ${missing.join(", ")})`,
      ]);
      continue;
    }
    const group = groups.get(batchRequest.request.attribute) ?? {
      attribute: target.attribute,
      kind: target.specs[0]?.kind ?? "select",
      present,
      missing,
      requests: [],
    };
    group.requests.push(batchRequest);
    groups.set(batchRequest.request.attribute, group);
  }
  return { groups, idByName };
}
