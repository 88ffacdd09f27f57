import type { CollectionSummary } from "../../upstreams/config-service/service-schemas.js";
import type { PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import { waitOrAbort } from "../../upstreams/pim/wait-or-abort.js";

export interface CatalogReadOptions {
  /** Read again whatever the cache holds (a read already in flight counts: it started after the cached one). */
  readonly fresh: boolean;
  /** Accept a cached value at most this old (bounded by the cache's own time to live). */
  readonly maxAgeMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The PIM structure and the service's collection list change rarely, but every add-options job
 * needs both: reading them once per job would cost several requests per addition against the
 * service's 10 req/s. Cached for `ttlMs`; callers ask for a fresh read before concluding that
 * something does not exist, so the cache can delay a rejection but never cause one.
 *
 * Concurrent callers share one read (a burst of trigger requests arriving on an empty or expired
 * cache costs one structure read, not one per request). The shared read runs without any one
 * caller's signal, so a caller that gives up does not fail the others; it stops waiting.
 */
export interface CatalogCache {
  structure(options: CatalogReadOptions): Promise<PimCatalogStructure>;
  collections(project: number, options: CatalogReadOptions): Promise<CollectionSummary[]>;
}

interface Entry<T> {
  cached?: { readonly value: T; readonly at: number };
  inFlight?: Promise<T>;
}

export function createCatalogCache(args: {
  readonly ttlMs: number;
  readonly readStructure: (signal?: AbortSignal) => Promise<PimCatalogStructure>;
  readonly listCollections: (project: number, signal?: AbortSignal) => Promise<CollectionSummary[]>;
  readonly now?: () => number;
}): CatalogCache {
  const now = args.now ?? Date.now;
  const structure: Entry<PimCatalogStructure> = {};
  const collections = new Map<number, Entry<CollectionSummary[]>>();

  function readThrough<T>(entry: Entry<T>, options: CatalogReadOptions, read: () => Promise<T>): Promise<T> {
    const maxAgeMs = options.fresh ? 0 : Math.min(options.maxAgeMs ?? args.ttlMs, args.ttlMs);
    if (entry.cached && now() - entry.cached.at < maxAgeMs) return Promise.resolve(entry.cached.value);
    if (!entry.inFlight) {
      // Stamped with the read's start: what it returns is at least that fresh.
      const startedAt = now();
      entry.inFlight = read()
        .then((value) => {
          entry.cached = { value, at: startedAt };
          return value;
        })
        .finally(() => {
          entry.inFlight = undefined;
        });
    }
    return waitOrAbort(entry.inFlight, options.signal);
  }

  return {
    structure: (options) => readThrough(structure, options, () => args.readStructure()),
    collections(project, options) {
      let entry = collections.get(project);
      if (!entry) collections.set(project, (entry = {}));
      return readThrough(entry, options, () => args.listCollections(project));
    },
  };
}

/** No caching: every call reads (the CLI's one-shot runs). */
export function uncachedCatalog(args: Omit<Parameters<typeof createCatalogCache>[0], "ttlMs" | "now">): CatalogCache {
  return createCatalogCache({ ...args, ttlMs: 0 });
}
