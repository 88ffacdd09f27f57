import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { CallSlots } from "./call-slots.js";
import { HttpError, isPermanentNetworkFailure } from "./http-error.js";
import { createRequestStats, type RequestStats } from "./request-stats.js";
import { decideRetry, type RetryPolicy } from "./retry-policy.js";
import type { RateLimiter, SettleRequest } from "./sliding-window-limiter.js";
import { BudgetPaused } from "./budget-paused.js";
import { createRedactor, type Redactor } from "../secrets/redactor.js";
import { credentialsInAuthorization } from "./credentials-in-authorization.js";
import { readHttpAnswer } from "./read-http-answer.js";
import { sendRequest } from "./send-request.js";
import type { HttpRequest, HttpResponse } from "./http-request.js";
import { messageOf } from "../../core/errors/message-of.js";

export interface HttpClientOptions {
  /** Short name used in logs and errors: "pim", "service". */
  readonly upstream: string;
  readonly baseUrl: string;
  readonly dispatcher: Dispatcher;
  readonly logger: Logger;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly rateLimiter?: RateLimiter;
  readonly concurrency?: CallSlots;
  /** Returns the Authorization header value; called for every attempt. */
  readonly authorize?: (signal?: AbortSignal) => Promise<string | undefined>;
  /** Sent with every request, for upstreams that authenticate with custom headers (Activation API). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called once per request on a 401; returns true when a retry may succeed (token refreshed). */
  readonly onUnauthorized?: (signal?: AbortSignal) => Promise<boolean>;
  readonly random?: () => number;
  /** Shared counters, when several clients talk to one upstream (e.g. token + API). */
  readonly stats?: RequestStats;
  /** Told of every answer's status (or "error" when none came): for the worker's metrics. */
  readonly onResponse?: ((status: number | "error") => void) | undefined;
  /**
   * Credentials this client sends other than in the Authorization header (which is always
   * covered): login bodies, custom auth headers. Removed, in every spelling, from every error
   * this client builds, since an upstream may echo the request in its answer.
   */
  readonly secrets?: () => readonly (string | undefined)[];
  /**
   * A 2xx answered with an HTML page is refused (a proxy's or a maintenance page, not the API's
   * answer) unless this is set: for a webhook, whose receiver may answer anything.
   */
  readonly htmlMayAnswer?: boolean;
}

/**
 * What every upstream's client is built from, as the worker has it: the upstream's URL, the shared
 * dispatcher and logger, the `http` settings, and the hooks tests and metrics give.
 */
export type UpstreamClientOptions = Pick<
  HttpClientOptions,
  "baseUrl" | "dispatcher" | "logger" | "retry" | "timeoutMs" | "random" | "onResponse"
>;

export interface HttpClient {
  send<S extends z.ZodType>(req: HttpRequest<S>): Promise<HttpResponse<z.infer<S>>>;
  readonly stats: RequestStats;
  readonly baseUrl: string;
}

/** A 429 without Retry-After pauses its budget for one window of the upstreams' counting (1 s). */
export const PAUSE_WITHOUT_RETRY_AFTER_MS = 1_000;

/** The URL a request goes to: `url` resolved against the base URL, with the query set on it. */
export function requestUrl(baseUrl: string, url: string, query?: HttpRequest<z.ZodType>["query"]): URL {
  const resolved = new URL(url, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) resolved.searchParams.set(key, String(value));
  }
  return resolved;
}

/** Getting the credentials failed (after the token request's own retries): not retried here. */
class AuthorizationFailed extends Error {
  constructor(cause: unknown) {
    super("authorization failed", { cause });
  }
}

/**
 * The one place that talks HTTP: limits, timeouts, bounded retries, 401 refresh, Retry-After,
 * response parsing. Bodies are always consumed so connections go back to the pool.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const stats = options.stats ?? createRequestStats();
  const random = options.random ?? Math.random;
  const log = options.logger.child({ upstream: options.upstream });
  const baseOrigin = new URL(options.baseUrl).origin;

  const buildUrl = (req: HttpRequest<z.ZodType>): URL => requestUrl(options.baseUrl, req.url, req.query);

  /**
   * A turn of a rate budget. One paused for longer than `http.max_retry_after_ms` (another
   * project's or process's 429, or a pause an older version left) refuses to wait: the request
   * is not sent and fails as transient with the pause's end, for the job queue to delay the job.
   */
  async function takeTurn(limiter: RateLimiter | undefined, req: HttpRequest<z.ZodType>, url: URL): Promise<SettleRequest | undefined> {
    try {
      return await limiter?.acquire(req.signal);
    } catch (error) {
      if (!(error instanceof BudgetPaused)) throw error;
      throw createRedactor({ secrets: options.secrets?.() ?? [] }).redactError(
        new HttpError(
          {
            upstream: options.upstream,
            method: req.method,
            url: url.toString(),
            code: "HTTP_PAUSED",
            transient: true,
            retryAfterMs: error.pauseLeftMs,
            cause: error,
          },
          `not sent: ${error.message}; left to the job queue`,
        ),
      );
    }
  }

  async function attemptOnce<S extends z.ZodType>(req: HttpRequest<S>, url: URL): Promise<HttpResponse<z.infer<S>>> {
    const method = req.method;
    const urlText = url.toString();
    const base = { upstream: options.upstream, method, url: urlText };
    // Made only when an error is built: what this request sent that an echo could carry back.
    const redactor = (): Redactor => createRedactor({ secrets: [...credentialsInAuthorization(auth), ...(options.secrets?.() ?? [])] });
    const headers: Record<string, string> = { accept: "application/json", ...options.headers, ...req.headers };
    let auth: string | undefined;
    try {
      auth = await options.authorize?.(req.signal);
    } catch (error) {
      throw new AuthorizationFailed(error);
    }
    if (auth !== undefined) headers.authorization = auth;
    let body: string | undefined;
    if (req.rawBody) {
      headers["content-type"] = req.rawBody.contentType;
      body = req.rawBody.body;
    } else if (req.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(req.json);
    }
    // Holding a slot while waiting for the per-second budget is fine: when that budget is the
    // bottleneck the slots are not. The timeout starts once the request may really go.
    const settle = await takeTurn(options.rateLimiter, req, url);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    stats.requests += 1;
    if (method === "GET") stats.reads += 1;
    else stats.writes += 1;

    let response: Dispatcher.ResponseData;
    try {
      response = await sendRequest(url, { method, headers, body, signal, dispatcher: options.dispatcher });
      settle?.();
    } catch (cause) {
      settle?.();
      if (req.signal?.aborted) throw cause;
      options.onResponse?.("error");
      const timedOut = timeout.aborted;
      throw redactor().redactError(
        new HttpError(
          { ...base, code: timedOut ? "HTTP_TIMEOUT" : "HTTP_NETWORK", transient: timedOut || !isPermanentNetworkFailure(cause), cause },
          timedOut ? `no answer within ${options.timeoutMs} ms` : `network error: ${messageOf(cause)}`,
        ),
      );
    }

    options.onResponse?.(response.statusCode);
    return readHttpAnswer(response, req, {
      base,
      redactor,
      timeout,
      timeoutMs: options.timeoutMs,
      htmlMayAnswer: options.htmlMayAnswer === true,
    });
  }

  async function send<S extends z.ZodType>(asked: HttpRequest<S>): Promise<HttpResponse<z.infer<S>>> {
    // The call's own signal, aborted with the caller's: what this call waits on (a budget's
    // line, a slot, the shared login, a retry's delay) listens on it, and the listeners go with
    // the call. On the caller's signal they would pile up: a job's dozens of calls at once share
    // it (Node's MaxListenersExceededWarning at 11), and it outlives every one of them.
    const req: HttpRequest<S> = asked.signal ? { ...asked, signal: AbortSignal.any([asked.signal]) } : asked;
    const url = buildUrl(req);
    // Every request carries credentials: whatever a caller (or an upstream's link) names, they
    // are only ever sent to the configured origin. Paging code rewrites links onto it first.
    if (url.origin !== baseOrigin) {
      throw new HttpError(
        {
          upstream: options.upstream,
          method: req.method,
          url: `${url.origin}${url.pathname}`,
          code: "HTTP_FOREIGN_ORIGIN",
          transient: false,
        },
        `not sent: only ${baseOrigin} is configured for ${options.upstream}`,
      );
    }
    const idempotent = req.idempotent ?? req.method === "GET";
    let refreshedAuth = false;
    for (let attempt = 1; ; attempt += 1) {
      try {
        // A slow secondary budget (3 option writes/s) is waited for before taking a slot, so
        // queued writes never starve reads of the connection's few slots.
        const settleExtra = await takeTurn(req.extraLimiter, req, url);
        const run = (): Promise<HttpResponse<z.infer<S>>> => attemptOnce(req, url);
        try {
          return await (options.concurrency ? options.concurrency.run(run, req.signal) : run());
        } finally {
          settleExtra?.();
        }
      } catch (error) {
        // Aborted by its caller (a sibling request failed, the job was cancelled): the abort's
        // reason may be another request's HttpError, which is not this request's to retry.
        if (req.signal?.aborted === true) throw error instanceof AuthorizationFailed ? error.cause : error;
        if (error instanceof AuthorizationFailed) {
          // The token request has its own bounded retries: retrying it again from here would
          // nest one retry loop in the other (attempts multiplied, warnings and waits too).
          stats.failures += 1;
          throw error.cause;
        }
        if (!(error instanceof HttpError)) throw error;
        if (error.code === "HTTP_PAUSED") {
          // The budget refused to wait for its pause: retrying here would be that wait.
          stats.failures += 1;
          throw error;
        }
        if (error.status === 401 && !refreshedAuth && options.onUnauthorized) {
          refreshedAuth = true;
          if (await options.onUnauthorized(req.signal)) {
            log.debug({ url: error.url }, "401: credentials refreshed, trying again");
            attempt -= 1; // a refresh is not a retry of a failing upstream
            continue;
          }
        }
        if (error.status === 429) {
          stats.rateLimited += 1;
          // With or without Retry-After: the upstream counts this identity as over budget now, so
          // every caller of it (in every process, when the budget is shared) holds back.
          options.rateLimiter?.pauseFor(error.retryAfterMs ?? PAUSE_WITHOUT_RETRY_AFTER_MS);
        }
        const decision = decideRetry({ error, attempt, idempotent, policy: options.retry, random });
        if (!decision.retry) {
          stats.failures += 1;
          throw error;
        }
        stats.retries += 1;
        // Status and code only: an upstream body may echo what was sent.
        log.warn(
          { method: error.method, url: error.url, status: error.status, code: error.code, attempt, delayMs: decision.delayMs },
          "request failed; retrying",
        );
        await sleep(decision.delayMs, undefined, { signal: req.signal });
      }
    }
  }

  return { send, stats, baseUrl: options.baseUrl };
}
