import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { createHttpClient, type HttpClient } from "../../infra/http/http-client.js";
import { HttpError } from "../../infra/http/http-error.js";
import type { RetryPolicy } from "../../infra/http/retry-policy.js";
import type { RequestStats } from "../../infra/http/request-stats.js";
import { CREATING_POSTS_ARE_IDEMPOTENT, PLATFORM_HEADER_NAMES, subscriptionAnswerSchema } from "./event-platform-assumptions.js";
import { subscriberAnswerSchema, subscriptionBodyOf, type SubscriberAnswer, type SubscriptionRequest } from "./event-platform-schemas.js";

export interface EventPlatformClientOptions {
  /** The REST base, `event_platform.url` (`https://…/api/v1`). */
  readonly baseUrl: string;
  /** The PIM's URL (`X-PIM-URL`): the platform ties a subscriber to one PIM... */
  readonly pimUrl: string;
  /** ...and to one connection (`X-PIM-CLIENT-ID`). */
  readonly clientId: string;
  /**
   * A PIM API access token of that connection (`X-PIM-TOKEN`), obtained by the caller: clients do
   * not import each other, so the PIM client's login stays the PIM client's.
   */
  readonly pimToken: string;
  readonly dispatcher: Dispatcher;
  readonly logger: Logger;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly random?: () => number;
}

export interface CreatedSubscription {
  readonly id: string;
  /** As the platform answered it; undefined when its answer has none. */
  readonly status: string | undefined;
}

export interface EventPlatformClient {
  /** `POST /subscriber`: a subscriber for this PIM and connection. */
  createSubscriber(input: { readonly name: string; readonly technicalEmail: string }, signal?: AbortSignal): Promise<SubscriberAnswer>;
  /** `POST /subscriber/{id}/subscription`: the platform checks the URL with HEAD before it answers. */
  createSubscription(subscriberId: string, request: SubscriptionRequest, signal?: AbortSignal): Promise<CreatedSubscription>;
  readonly stats: RequestStats;
}

/**
 * The Akeneo Event Platform's REST API, the two calls that set a subscription up. Credentials
 * (the PIM token, the client id) and the subscription's secrets go only to `baseUrl`'s origin
 * (the HTTP layer refuses any other) and are removed from every error, in every spelling.
 */
export function createEventPlatformClient(options: EventPlatformClientOptions): EventPlatformClient {
  let secretsSent: readonly string[] = [];
  const http: HttpClient = createHttpClient({
    upstream: "event-platform",
    baseUrl: options.baseUrl,
    dispatcher: options.dispatcher,
    logger: options.logger,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    random: options.random,
    headers: {
      [PLATFORM_HEADER_NAMES.pimUrl]: options.pimUrl,
      [PLATFORM_HEADER_NAMES.pimToken]: options.pimToken,
      [PLATFORM_HEADER_NAMES.clientId]: options.clientId,
    },
    // The token travels in a header of its own and the secrets in the body: an echo may carry either back.
    secrets: () => [options.pimToken, options.clientId, ...secretsSent],
  });

  /** One creating POST; its answer parsed with `schema` (a shape error names the field, never the body). */
  async function post<S extends z.ZodType>(
    what: string,
    url: string,
    json: unknown,
    schema: S,
    signal?: AbortSignal,
  ): Promise<z.output<S>> {
    try {
      return (await http.send({ method: "POST", url, json, schema, idempotent: CREATING_POSTS_ARE_IDEMPOTENT, signal })).data;
    } catch (error) {
      throw explained(error, what);
    }
  }

  return {
    stats: http.stats,
    async createSubscriber(input, signal) {
      const body = { name: input.name, contact: { technical_email: input.technicalEmail } };
      return post("the subscriber", "subscriber", body, subscriberAnswerSchema, signal);
    },
    async createSubscription(subscriberId, request, signal) {
      secretsSent = [request.secret.primary, ...(request.secret.secondary === undefined ? [] : [request.secret.secondary])];
      const url = `subscriber/${encodeURIComponent(subscriberId)}/subscription`;
      const answer = await post("the subscription", url, subscriptionBodyOf(request), subscriptionAnswerSchema, signal);
      return { id: answer.id, status: answer.status };
    },
  };
}

/**
 * Names what failed and what to do, keeping the HTTP layer's status and (redacted) excerpt. A
 * refused credential names the headers, never their values; a 5xx or a timeout of a creating
 * POST is not retried (event-platform-assumptions.ts), so the operator is told to look first;
 * a 429 was retried and made nothing.
 */
function explained(error: unknown, what: string): unknown {
  if (!(error instanceof HttpError)) return error;
  const prefix = `[${error.upstream} ${error.method}] "${error.url}": `;
  const said = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const details = {
    code: error.code,
    upstream: error.upstream,
    method: error.method,
    url: error.url,
    status: error.status,
    bodyExcerpt: error.bodyExcerpt,
    retryAfterMs: error.retryAfterMs,
    transient: error.transient,
  };
  if (error.status === 401 || error.status === 403) {
    return new HttpError(
      { ...details, transient: false },
      `${said} (creating ${what}: the platform refused the PIM connection's credentials, sent in ${PLATFORM_HEADER_NAMES.pimToken} and ${PLATFORM_HEADER_NAMES.clientId} for ${PLATFORM_HEADER_NAMES.pimUrl}; their values are not shown)`,
    );
  }
  if (error.status === 429) {
    // Refused before it was processed, and already tried again within http.max_attempts: nothing was made.
    return new HttpError(details, `${said} (creating ${what}: the platform's rate limit; nothing was created, try again later)`);
  }
  if (error.transient) {
    return new HttpError(
      details,
      `${said} (creating ${what}: not tried again, since the platform may have made it anyway; check the platform before running the command again)`,
    );
  }
  return new HttpError(details, `${said} (creating ${what})`);
}
