import type { ServiceOption } from "../../core/domain/option-collection.js";
import { createConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";
import { createHttpClient, requestUrl, type HttpClient, type UpstreamClientOptions } from "../../infra/http/http-client.js";
import { createPagingGuard } from "../../infra/http/paging-guard.js";
import { HttpError } from "../../infra/http/http-error.js";
import { createRequestStats, type RequestStats } from "../../infra/http/request-stats.js";
import { createSlidingWindowLimiter, type RateLimiter } from "../../infra/http/sliding-window-limiter.js";
import { createServiceAuth, type ServiceCredentials } from "./service-auth.js";
import { COLLECTIONS_PAGE_SIZE, SERVICE_PATHS } from "./service-paths.js";
import { collectionPageSchema, writeResponseSchema, type CollectionSummary } from "./service-schemas.js";

export interface UpdateOptionsBody {
  readonly upsert_options: readonly ServiceOption[];
  readonly delete_options: readonly string[];
  readonly delete_all: boolean;
}

export interface ConfigServiceClient {
  /** Every collection of `project`, following every page; other projects' collections are dropped. */
  listCollections(project: number, signal?: AbortSignal): Promise<CollectionSummary[]>;
  updateOptions(collectionId: number, body: UpdateOptionsBody, signal?: AbortSignal): Promise<void>;
  addOptions(collectionId: number, options: readonly ServiceOption[], signal?: AbortSignal): Promise<void>;
  readonly stats: RequestStats;
}

/** `retry` and `timeoutMs` are the `http` settings; `onResponse` is told every answer's status, token requests included. */
export interface ConfigServiceClientOptions extends UpstreamClientOptions {
  readonly credentials: ServiceCredentials;
  /** `service.requests_per_second`: the service allows 10 requests per second. */
  readonly requestsPerSecond: number;
  /** `service.max_in_flight`: calls in flight at once (the connection pool's sockets). */
  readonly maxInFlight: number;
  /** The account's budget, shared with every client of the same account (src/infra/budgets/); else this client's own. */
  readonly rateLimiter?: RateLimiter;
}

export function createConfigServiceClient(options: ConfigServiceClientOptions): ConfigServiceClient {
  const rateLimiter =
    options.rateLimiter ?? createSlidingWindowLimiter({ limit: options.requestsPerSecond, maxPauseMs: options.retry.maxRetryAfterMs });
  const common = {
    upstream: "service",
    baseUrl: options.baseUrl,
    dispatcher: options.dispatcher,
    logger: options.logger,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    rateLimiter,
    concurrency: createConcurrencyLimiter(options.maxInFlight),
    random: options.random,
    stats: createRequestStats(),
    onResponse: options.onResponse,
  };
  const credentials = options.credentials;
  // The login body (email, password) or the static token: an echoing upstream sends them back.
  const secrets = (): string[] => ("token" in credentials ? [credentials.token] : [credentials.email, credentials.password]);
  const tokenClient = createHttpClient({ ...common, secrets });
  const auth = createServiceAuth(options.credentials, tokenClient);
  const http: HttpClient = createHttpClient({
    ...common,
    secrets,
    authorize: (signal) => auth.authorize(signal),
    onUnauthorized: (signal) => auth.onUnauthorized(signal),
  });

  async function listCollections(project: number, signal?: AbortSignal): Promise<CollectionSummary[]> {
    const firstQuery = { page: 1, limit: COLLECTIONS_PAGE_SIZE, project };
    // A repeated or foreign `next` link (DRF builds it from the request's scheme and Host), an
    // item served twice or a count that does not match fails the list: the service token goes
    // with every request, and a partial list would hide collections.
    const guard = createPagingGuard({
      upstream: "service",
      list: "option collections",
      baseUrl: options.baseUrl,
      firstUrl: requestUrl(options.baseUrl, SERVICE_PATHS.listCollections, firstQuery).toString(),
      logger: options.logger,
    });
    const found: CollectionSummary[] = [];
    let url: string = SERVICE_PATHS.listCollections;
    let query: Record<string, number> | undefined = firstQuery;
    let expectedCount: number | undefined;
    for (;;) {
      const { data } = await http.send({ method: "GET", url, query, schema: collectionPageSchema, signal });
      expectedCount ??= data.count;
      const next = data.next ?? null;
      guard.page(
        data.results.map((collection) => String(collection.id)),
        next !== null,
      );
      for (const collection of data.results) if (collection.project === project) found.push(collection);
      if (next === null) break;
      url = guard.next(next);
      query = undefined;
    }
    guard.finish(expectedCount);
    return found;
  }

  async function updateOptions(collectionId: number, body: UpdateOptionsBody, signal?: AbortSignal): Promise<void> {
    const url = SERVICE_PATHS.updateOptions(collectionId);
    const { data } = await http.send({
      method: "PATCH",
      url,
      json: body,
      schema: writeResponseSchema,
      // Upserts and deletes by name: sending the same body twice ends in the same state.
      idempotent: true,
      signal,
    });
    checkSummaryOf(collectionId, data.id, "PATCH", url);
  }

  async function addOptions(collectionId: number, addOptionsList: readonly ServiceOption[], signal?: AbortSignal): Promise<void> {
    const url = SERVICE_PATHS.addOptions(collectionId);
    const { data } = await http.send({
      method: "PATCH",
      url,
      json: { upsert_options: addOptionsList },
      schema: writeResponseSchema,
      // Not idempotent: a repeat after a lost answer is refused for the options it already added.
      idempotent: false,
      signal,
    });
    checkSummaryOf(collectionId, data.id, "PATCH", url);
  }

  /** The summary of another collection is not the answer to this write. */
  function checkSummaryOf(collectionId: number, answeredId: number, method: string, path: string): void {
    if (answeredId === collectionId) return;
    throw new HttpError(
      {
        upstream: "service",
        method,
        url: requestUrl(options.baseUrl, path).toString(),
        code: "HTTP_RESPONSE_SHAPE",
        status: 200,
        transient: false,
      },
      `unexpected response shape: id: the answer is the summary of collection ${answeredId}, not ${collectionId}`,
    );
  }

  return {
    listCollections,
    updateOptions,
    addOptions,
    stats: http.stats,
  };
}
