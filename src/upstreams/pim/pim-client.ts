import { readTargetStructure } from "./read-target-structure.js";
import type { SyncTargets } from "../../core/domain/sync-targets.js";
import type { PimAttributeOption, PimCatalogStructure, PimRecord } from "../../core/domain/pim-catalog.js";
import { createConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";
import { createHttpClient, type HttpClient, type UpstreamClientOptions } from "../../infra/http/http-client.js";
import { HttpError } from "../../infra/http/http-error.js";
import type { RequestStats } from "../../infra/http/request-stats.js";
import { createSlidingWindowLimiter, type RateLimiter } from "../../infra/http/sliding-window-limiter.js";
import type { CallSlots } from "../../infra/http/call-slots.js";
import { chunksOf } from "./chunks-of.js";
import { collectPages, followNextLinks, openPagedList, type OpenedList } from "./follow-next-links.js";
import { toPimAttributeOption, toPimRecord } from "./map-pim-catalog.js";
import { createPimAuth, type PimCredentials } from "./pim-auth.js";
import { pimApiBaseUrl, pimPath } from "./pim-path.js";
import {
  attributeOptionSchema,
  collectionResponseSchema,
  pageSchema,
  recordSchema,
  referenceEntitySchema,
  searchAfterPageSchema,
  upsertListResponseSchema,
} from "./pim-schemas.js";
import { resultsFromCollectionLines, resultsFromUpsertList, type PimUpsertItem, type PimUpsertResult } from "./pim-upsert-result.js";
import { PAGE_LIMIT, readPimStructure } from "./read-pim-structure.js";
import { toRecordLabelWrite } from "./record-label-values.js";

/**
 * `baseUrl` is the PIM root URL (`https://pim.example.com`), without `/api/rest/v1`; `retry` and
 * `timeoutMs` are the `http` settings; `onResponse` is told every answer's status, token requests included.
 */
export interface PimClientOptions extends UpstreamClientOptions {
  readonly credentials: PimCredentials;
  /** `pim.max_in_flight`: Akeneo allows 4 requests in flight per connection. */
  readonly maxInFlight: number;
  /** `pim.requests_per_second`: Akeneo allows 100 requests per second per instance. */
  readonly requestsPerSecond: number;
  /** `pim.option_writes_per_second`: option writes have their own limit of 3 per second per instance (since Jan 2024). */
  readonly optionWritesPerSecond: number;
  /**
   * Budgets shared with other clients of the same instance and connection (src/infra/budgets/); without
   * them this client has its own, built from the numbers above.
   */
  readonly budgets?: PimBudgets;
}

export interface PimBudgets {
  readonly requests: RateLimiter;
  readonly optionWrites: RateLimiter;
  readonly slots: CallSlots;
}

export interface PimClient {
  readStructure(signal?: AbortSignal): Promise<PimCatalogStructure>;
  /** The structure a targeted sync needs: the named attributes and the scope's lists (read-target-structure.ts). */
  readTargetStructure(targets: SyncTargets, signal?: AbortSignal): Promise<PimCatalogStructure>;
  /** Options of a simple/multi select attribute, one page (≤100) at a time; 404 if it has none. */
  attributeOptionPages(attribute: string, signal?: AbortSignal): AsyncIterable<PimAttributeOption[]>;
  /** The same list, its first page read: the count is known before the rest is read. */
  openAttributeOptions(attribute: string, signal?: AbortSignal): Promise<OpenedList<PimAttributeOption>>;
  /** Records of a reference entity with their `label` values, one server-sized page at a time. */
  referenceEntityRecordPages(entity: string, signal?: AbortSignal): AsyncIterable<PimRecord[]>;
  listReferenceEntities(signal?: AbortSignal): Promise<string[]>;
  getAttributeOption(attribute: string, code: string, signal?: AbortSignal): Promise<PimAttributeOption | null>;
  /** How many options the attribute has (one request: a one-item page with `with_count`); 404 if it has none. */
  countAttributeOptions(attribute: string, signal?: AbortSignal): Promise<number>;
  getRecord(entity: string, code: string, signal?: AbortSignal): Promise<PimRecord | null>;
  /** Upserts in batches of ≤100; the answer holds one status per item, which may be an error. */
  upsertAttributeOptions(attribute: string, options: readonly PimUpsertItem[], signal?: AbortSignal): Promise<PimUpsertResult[]>;
  upsertRecords(entity: string, records: readonly PimUpsertItem[], signal?: AbortSignal): Promise<PimUpsertResult[]>;
  readonly stats: RequestStats;
}

/** Both batch endpoints refuse more than 100 items with a 413 for the whole request. */
const BATCH_SIZE = 100;
const COLLECTION_CONTENT_TYPE = "application/vnd.akeneo.collection+json";

const optionPage = pageSchema(attributeOptionSchema);
const referenceEntityPage = searchAfterPageSchema(referenceEntitySchema);
const recordPage = searchAfterPageSchema(recordSchema);

export function createPimClient(options: PimClientOptions): PimClient {
  const { retry, maxInFlight, timeoutMs } = options;
  const logger = options.logger.child({ component: "pim-client" });
  // Shared by every request of this process to this PIM, token calls included.
  const maxPauseMs = retry.maxRetryAfterMs;
  const rateLimiter = options.budgets?.requests ?? createSlidingWindowLimiter({ limit: options.requestsPerSecond, maxPauseMs });
  const optionWriteLimiter =
    options.budgets?.optionWrites ?? createSlidingWindowLimiter({ limit: options.optionWritesPerSecond, maxPauseMs });
  const auth = createPimAuth({
    baseUrl: options.baseUrl,
    credentials: options.credentials,
    dispatcher: options.dispatcher,
    logger: options.logger,
    retry,
    timeoutMs,
    rateLimiter,
    random: options.random,
    onResponse: options.onResponse,
  });
  const http: HttpClient = createHttpClient({
    upstream: "pim",
    baseUrl: pimApiBaseUrl(options.baseUrl),
    dispatcher: options.dispatcher,
    logger: options.logger,
    retry,
    timeoutMs,
    rateLimiter,
    concurrency: options.budgets?.slots ?? createConcurrencyLimiter(maxInFlight),
    authorize: (signal) => auth.authorize(signal),
    onUnauthorized: (signal) => auth.onUnauthorized(signal),
    random: options.random,
    onResponse: options.onResponse,
  });

  async function openAttributeOptions(
    attribute: string,
    signal?: AbortSignal,
  ): Promise<{ count: number | undefined; pages: AsyncGenerator<PimAttributeOption[]> }> {
    // `with_count`: the count served with the first page is checked against what was read, so
    // a list truncated by the server (or changed while it was read) fails instead of being
    // planned as deletions. The next links repeat the parameter.
    const first = { url: pimPath("attributes", attribute, "options"), query: { limit: PAGE_LIMIT, with_count: "true" } };
    // Pages read ahead with as many requests as the connection may have in flight: the count
    // tells how many pages there are, so an attribute with 40,000 options is not read one
    // round trip after another.
    const list = await openPagedList({ http, logger, first, schema: optionPage, signal, readAhead: maxInFlight });
    return { count: list.count, pages: mapPages(list.pages, toPimAttributeOption) };
  }

  async function* attributeOptionPages(attribute: string, signal?: AbortSignal): AsyncGenerator<PimAttributeOption[]> {
    yield* (await openAttributeOptions(attribute, signal)).pages;
  }

  async function* referenceEntityRecordPages(entity: string, signal?: AbortSignal): AsyncGenerator<PimRecord[]> {
    // No `limit`: records are search_after only and the page size is the server's.
    const first = { url: pimPath("reference-entities", entity, "records") };
    for await (const page of followNextLinks({ http, logger, first, schema: recordPage, signal })) {
      yield page.map(toPimRecord);
    }
  }

  async function upsertAttributeOptions(
    attribute: string,
    items: readonly PimUpsertItem[],
    signal?: AbortSignal,
  ): Promise<PimUpsertResult[]> {
    const results: PimUpsertResult[] = [];
    for (const batch of chunksOf(items, BATCH_SIZE)) {
      const body = batch.map((item) => JSON.stringify({ code: item.code, attribute, labels: item.labels })).join("\n");
      const { data } = await http.send({
        method: "PATCH",
        url: pimPath("attributes", attribute, "options"),
        rawBody: { contentType: COLLECTION_CONTENT_TYPE, body },
        responseType: "text",
        schema: collectionResponseSchema,
        // An upsert by code: sending it twice leaves the same options.
        idempotent: true,
        extraLimiter: optionWriteLimiter,
        signal,
      });
      results.push(...resultsFromCollectionLines(batch, data));
    }
    return results;
  }

  async function upsertRecords(entity: string, items: readonly PimUpsertItem[], signal?: AbortSignal): Promise<PimUpsertResult[]> {
    const results: PimUpsertResult[] = [];
    for (const batch of chunksOf(items, BATCH_SIZE)) {
      // A JSON array as application/json, not the line format (whatever the Swagger suggests).
      const { data } = await http.send({
        method: "PATCH",
        url: pimPath("reference-entities", entity, "records"),
        json: batch.map(toRecordLabelWrite),
        schema: upsertListResponseSchema,
        idempotent: true,
        signal,
      });
      results.push(...resultsFromUpsertList(batch, data));
    }
    return results;
  }

  return {
    readStructure: (signal) => readPimStructure({ http, logger }, signal),
    readTargetStructure: (targets, signal) => readTargetStructure({ http, logger }, targets, signal),
    attributeOptionPages,
    openAttributeOptions,
    referenceEntityRecordPages,
    listReferenceEntities: (signal) =>
      collectPages({
        http,
        logger,
        signal,
        first: { url: "reference-entities" },
        schema: referenceEntityPage,
        map: (entity) => entity.code,
      }),
    getAttributeOption: (attribute, code, signal) =>
      nullWhenNotFound(
        http
          .send({ method: "GET", url: pimPath("attributes", attribute, "options", code), schema: attributeOptionSchema, signal })
          .then(({ data }) => toPimAttributeOption(data)),
      ),
    countAttributeOptions: async (attribute, signal) => {
      const { data } = await http.send({
        method: "GET",
        url: pimPath("attributes", attribute, "options"),
        query: { limit: 1, with_count: "true" },
        schema: optionPage,
        signal,
      });
      if (data.items_count === undefined) throw new Error(`the PIM did not count the options of '${attribute}' (with_count=true)`);
      return data.items_count;
    },
    getRecord: (entity, code, signal) =>
      nullWhenNotFound(
        http
          .send({ method: "GET", url: pimPath("reference-entities", entity, "records", code), schema: recordSchema, signal })
          .then(({ data }) => toPimRecord(data)),
      ),
    upsertAttributeOptions,
    upsertRecords,
    stats: http.stats,
  };
}

/** On a single GET, 404 is the answer "no such item", which callers want as a value. */
async function nullWhenNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof HttpError && error.code === "HTTP_STATUS" && error.status === 404) return null;
    throw error;
  }
}

async function* mapPages<I, T>(pages: AsyncIterable<readonly I[]>, map: (item: I) => T): AsyncGenerator<T[]> {
  for await (const page of pages) yield page.map(map);
}
