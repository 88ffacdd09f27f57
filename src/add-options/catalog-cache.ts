import type { CollectionSummary } from "../config-service/service-schemas.js";
import type { PimCatalogStructure } from "../domain/pim-catalog.js";

/**
 * The PIM structure and the service's collection list change rarely, but every add-options job
 * needs both: reading them once per job would cost several requests per addition against the
 * service's 10 req/s. Cached for `ttlMs`; callers ask for a fresh read before concluding that
 * something does not exist, so the cache can delay a rejection but never cause one.
 */
export interface CatalogCache {
  structure(options: { readonly fresh: boolean; readonly signal?: AbortSignal | undefined }): Promise<PimCatalogStructure>;
  collections(project: number, options: { readonly fresh: boolean; readonly signal?: AbortSignal | undefined }): Promise<CollectionSummary[]>;
}

export function createCatalogCache(args: {
  readonly ttlMs: number;
  readonly readStructure: (signal?: AbortSignal) => Promise<PimCatalogStructure>;
  readonly listCollections: (project: number, signal?: AbortSignal) => Promise<CollectionSummary[]>;
  readonly now?: () => number;
}): CatalogCache {
  const now = args.now ?? Date.now;
  let structure: { value: PimCatalogStructure; at: number } | undefined;
  const collections = new Map<number, { value: CollectionSummary[]; at: number }>();
  const isFresh = (entry: { at: number } | undefined, fresh: boolean): boolean => !fresh && entry !== undefined && now() - entry.at < args.ttlMs;

  return {
    async structure({ fresh, signal }) {
      if (structure && isFresh(structure, fresh)) return structure.value;
      const value = await args.readStructure(signal);
      structure = { value, at: now() };
      return value;
    },
    async collections(project, { fresh, signal }) {
      const cached = collections.get(project);
      if (cached && isFresh(cached, fresh)) return cached.value;
      const value = await args.listCollections(project, signal);
      collections.set(project, { value, at: now() });
      return value;
    },
  };
}

/** No caching: every call reads (the CLI's one-shot runs). */
export function uncachedCatalog(args: Omit<Parameters<typeof createCatalogCache>[0], "ttlMs" | "now">): CatalogCache {
  return createCatalogCache({ ...args, ttlMs: 0 });
}
