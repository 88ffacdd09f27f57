import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import { describeIssues, HttpError } from "../../infra/http/http-error.js";
import { createHttpClient, type HttpClient } from "../../infra/http/http-client.js";
import type { HttpRequest } from "../../infra/http/http-request.js";
import type { RetryPolicy } from "../../infra/http/retry-policy.js";
import { createSlidingWindowLimiter, type RateLimiter } from "../../infra/http/sliding-window-limiter.js";
import type { RequestStats } from "../../infra/http/request-stats.js";
import type { z } from "zod";
import {
  authHeadersOf,
  cursorText,
  describeAuthHeaders,
  MAX_ORDER_PAGES,
  offersBody,
  PUTS_ARE_IDEMPOTENT,
} from "./activation-assumptions.js";
import { ActivationProtocolError } from "./activation-errors.js";
import {
  anyBodySchema,
  channelConnectionListSchema,
  channelConnectionSchema,
  ordersPageSchema,
  type ChannelConnection,
} from "./activation-schemas.js";
import type { ActivationSettings } from "../../settings/activation-settings-schema.js";

export interface ConnectionList {
  /** The API's array, unchanged (for `--json`). */
  readonly raw: readonly unknown[];
  readonly connections: readonly ChannelConnection[];
}

export interface ActivationClient {
  listConnections(signal?: AbortSignal): Promise<ConnectionList>;
  /** Every page of a connection's orders; `results` of each page, unchanged. Throws on any failed page. */
  readOrderPages(connection: string, signal?: AbortSignal): Promise<unknown[][]>;
  putOffers(connection: string, offers: readonly unknown[], signal?: AbortSignal): Promise<void>;
  updateShipment(connection: string, shipment: unknown, signal?: AbortSignal): Promise<void>;
  readonly stats: RequestStats;
}

/** Paths from the issue and the samples (reference §5.3), under `/v1`. */
const connectionPath = (connection: string): string => `v1/channel-connections/${encodeURIComponent(connection)}`;

/** A rate below 1/s becomes one request per longer window (the limiter counts whole requests). */
export function activationRateBudget(requestsPerSecond: number): { readonly limit: number; readonly windowMs: number } {
  const limit = Math.max(1, Math.floor(requestsPerSecond));
  return { limit, windowMs: Math.round((1000 * limit) / requestsPerSecond) };
}

export function createActivationClient(options: {
  readonly settings: ActivationSettings;
  readonly dispatcher: Dispatcher;
  readonly logger: Logger;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly random?: () => number;
  /** The connection's budget shared with other processes (src/infra/budgets/); else this client's own. */
  readonly rateLimiter?: RateLimiter;
}): ActivationClient {
  const { settings } = options;
  const http: HttpClient = createHttpClient({
    upstream: "activation",
    baseUrl: settings.url,
    dispatcher: options.dispatcher,
    logger: options.logger,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    rateLimiter:
      options.rateLimiter ??
      createSlidingWindowLimiter({ ...activationRateBudget(settings.requests_per_second), maxPauseMs: options.retry.maxRetryAfterMs }),
    headers: authHeadersOf(settings.auth, settings.pim_connection_id, settings.access_token),
    // In `headers` mode the token travels in a header of its own, which an echo may carry back.
    secrets: () => [settings.access_token],
    random: options.random,
  });

  /** A 401 says which header carried the token, never its value (the upstream's body is dropped too: it may echo it). */
  async function send<S extends z.ZodType>(req: HttpRequest<S>): Promise<z.infer<S>> {
    try {
      return (await http.send(req)).data;
    } catch (error) {
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
        throw new HttpError(
          { code: error.code, upstream: error.upstream, method: error.method, url: error.url, status: error.status, transient: false },
          `${error.status}: the access token was refused. It was sent in ${describeAuthHeaders(settings.auth)}; its value is not shown. Check activation.access_token and activation.pim_connection_id.`,
        );
      }
      throw error;
    }
  }

  return {
    stats: http.stats,
    async listConnections(signal) {
      const raw = await send({ method: "GET", url: "v1/channel-connections", schema: channelConnectionListSchema, signal });
      const connections: ChannelConnection[] = [];
      const problems: string[] = [];
      raw.forEach((item, index) => {
        const parsed = channelConnectionSchema.safeParse(item);
        if (parsed.success) connections.push(parsed.data);
        else problems.push(`[${index}] ${describeIssues(parsed.error.issues)}`);
      });
      if (problems.length > 0)
        throw new ActivationProtocolError(`unexpected channel-connections shape: ${problems.slice(0, 5).join("; ")}`);
      return { raw, connections };
    },

    async readOrderPages(connection, signal) {
      const pages: unknown[][] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (;;) {
        const page = await send({
          method: "GET",
          url: `${connectionPath(connection)}/orders`,
          query: cursor === undefined ? {} : { [settings.cursor_param]: cursor },
          schema: ordersPageSchema,
          signal,
        });
        pages.push(page.results);
        if (page.nextSearchAfter === null || page.nextSearchAfter === undefined) return pages;
        const next = cursorText(page.nextSearchAfter);
        // A cursor seen before would page forever: stop with an error rather than loop.
        if (seen.has(next) || next === cursor) {
          throw new ActivationProtocolError(
            `orders of connection '${connection}': the API sent the cursor '${next}' again after page ${pages.length}; stopping rather than looping (nothing was emitted)`,
          );
        }
        if (pages.length >= MAX_ORDER_PAGES)
          throw new ActivationProtocolError(`orders of connection '${connection}': more than ${MAX_ORDER_PAGES} pages; stopping`);
        seen.add(next);
        cursor = next;
      }
    },

    async putOffers(connection, offers, signal) {
      await send({
        method: "PUT",
        url: `${connectionPath(connection)}/offers`,
        json: offersBody(offers, settings.offers.envelope),
        schema: anyBodySchema,
        idempotent: PUTS_ARE_IDEMPOTENT,
        responseType: "none",
        signal,
      });
    },

    async updateShipment(connection, shipment, signal) {
      await send({
        method: "PUT",
        url: `${connectionPath(connection)}/orders/update-shipment`,
        json: shipment,
        schema: anyBodySchema,
        idempotent: PUTS_ARE_IDEMPOTENT,
        responseType: "none",
        signal,
      });
    },
  };
}
