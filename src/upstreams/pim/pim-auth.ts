import { createHttpClient, type UpstreamClientOptions } from "../../infra/http/http-client.js";
import { HttpError } from "../../infra/http/http-error.js";
import type { RateLimiter } from "../../infra/http/sliding-window-limiter.js";
import { tokenResponseSchema } from "./pim-schemas.js";
import { redactSecrets } from "../../infra/secrets/redactor.js";
import { waitOrAbort } from "./wait-or-abort.js";

/** A PIM connection's credentials (Connect > Connection settings). */
export interface PimCredentials {
  readonly clientId: string;
  readonly secret: string;
  readonly username: string;
  readonly password: string;
}

/** `baseUrl` is the PIM root URL (`https://pim.example.com`), without `/api/...`; `onResponse` is told every token answer's status. */
export interface PimAuthOptions extends UpstreamClientOptions {
  readonly credentials: PimCredentials;
  /** The PIM client's request-rate limiter: token calls count against the instance's 100 req/s too. */
  readonly rateLimiter?: RateLimiter;
  /** Wall clock in ms, injected so expiry can be tested without waiting an hour. */
  readonly now?: () => number;
}

export interface PimAuth {
  /** `Bearer <token>`, logging in or refreshing first when needed. */
  authorize(signal?: AbortSignal): Promise<string>;
  /** After a 401: renews the token (refresh grant, else password login). True: worth a retry. */
  onUnauthorized(signal?: AbortSignal): Promise<boolean>;
}

export const TOKEN_PATH = "api/oauth/v1/token";
export const CREDENTIALS_REJECTED_MESSAGE = "PIM rejected the client id/secret or the username/password";

/** Renew this long before expiry, so a request never leaves with a token about to lapse. */
const REFRESH_MARGIN_MS = 30_000;
/** Statuses with which the token endpoint refuses credentials (422 per the docs; the rest from proxies). */
const REJECTION_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 422]);

interface TokenState {
  readonly accessToken: string;
  /** Left out by the PIM: the next renewal is a password grant. */
  readonly refreshToken: string | undefined;
  /** Undefined when the PIM gave no `expires_in`: the token is used until a request answers 401. */
  readonly expiry: { readonly atMs: number; readonly lifetimeMs: number } | undefined;
}

type Grant = { grant_type: "password"; username: string; password: string } | { grant_type: "refresh_token"; refresh_token: string };

/**
 * OAuth password grant for a PIM connection, with refresh. Every caller shares one in-flight login
 * or refresh, so a burst of requests (or of 401s) costs a single token call. A token answer may
 * leave out `expires_in` (the token is then kept until a 401) and `refresh_token` (renewal is then
 * a new password grant): Akeneo's API description makes both optional.
 */
export function createPimAuth(options: PimAuthOptions): PimAuth {
  const now = options.now ?? Date.now;
  const log = options.logger.child({ component: "pim-auth" });
  const { clientId, secret, username, password } = options.credentials;
  const basicCredentials = Buffer.from(`${clientId}:${secret}`, "utf8").toString("base64");
  // A client of its own: the token call must not wait for the bearer token it is fetching, nor
  // take one of the four request slots (requests holding them would be waiting for this call).
  // Its `authorize` only supplies the client's Basic credentials.
  const http = createHttpClient({
    upstream: "pim-auth",
    baseUrl: options.baseUrl,
    dispatcher: options.dispatcher,
    logger: options.logger,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    rateLimiter: options.rateLimiter,
    random: options.random,
    onResponse: options.onResponse,
    authorize: () => Promise.resolve(`Basic ${basicCredentials}`),
    // The token request's body: an echoing endpoint sends the user name and password back.
    secrets: () => secrets(),
  });
  let state: TokenState | undefined;
  let pending: Promise<void> | undefined;

  function secrets(): (string | undefined)[] {
    // The base64 pair too: it is the secret in thin disguise.
    return [clientId, secret, username, password, basicCredentials, state?.accessToken, state?.refreshToken];
  }

  async function requestToken(grant: Grant): Promise<void> {
    const startedAtMs = now();
    // Repeating a token call is harmless (at worst one more token), so transient failures retry.
    const { data } = await http.send({ method: "POST", url: TOKEN_PATH, json: grant, schema: tokenResponseSchema, idempotent: true });
    const lifetimeMs = data.expires_in === undefined ? undefined : data.expires_in * 1000;
    // Counted from before the call: the PIM started the clock no later than that.
    const expiry = lifetimeMs === undefined ? undefined : { atMs: startedAtMs + lifetimeMs, lifetimeMs };
    state = { accessToken: data.access_token, refreshToken: data.refresh_token, expiry };
    log.info(
      { grant: grant.grant_type, expiresInS: data.expires_in ?? null, refreshable: data.refresh_token !== undefined },
      "PIM access token obtained",
    );
  }

  async function logIn(): Promise<void> {
    try {
      await requestToken({ grant_type: "password", username, password });
    } catch (error) {
      throw describeFailure(error, true);
    }
  }

  async function refreshOrLogIn(): Promise<void> {
    const refreshToken = state?.refreshToken;
    // No refresh token was given (or none yet): only the password can renew.
    if (refreshToken === undefined) return logIn();
    try {
      await requestToken({ grant_type: "refresh_token", refresh_token: refreshToken });
    } catch (error) {
      // An expired, revoked or already used refresh token: start again from the password.
      if (error instanceof HttpError && error.status !== undefined && error.status >= 400 && error.status < 500) {
        log.info({ status: error.status }, "PIM refused the refresh token; logging in again");
        state = undefined;
        return logIn();
      }
      throw describeFailure(error, false);
    }
  }

  function renew(): Promise<void> {
    pending ??= (state ? refreshOrLogIn() : logIn()).finally(() => {
      pending = undefined;
    });
    return pending;
  }

  /** Keeps the PIM's words (they say which part is wrong) but never a credential. */
  function describeFailure(error: unknown, passwordGrant: boolean): unknown {
    if (!(error instanceof HttpError)) return error;
    const excerpt = redactSecrets(error.bodyExcerpt ?? "", secrets());
    const base = { upstream: error.upstream, method: error.method, url: error.url, status: error.status, bodyExcerpt: excerpt };
    if (passwordGrant && error.code === "HTTP_STATUS" && error.status !== undefined && REJECTION_STATUSES.has(error.status)) {
      // Retrying cannot help until someone fixes the configuration.
      return new HttpError(
        { ...base, code: "HTTP_STATUS", transient: false },
        `${CREDENTIALS_REJECTED_MESSAGE} (${error.status} ${excerpt})`,
      );
    }
    const message = redactSecrets(error.message, secrets());
    if (message === error.message) return error;
    // HttpError prefixes "[upstream METHOD] "url": " itself; pass on only what follows.
    const prefix = `[${error.upstream} ${error.method}] "${error.url}": `;
    const what = message.startsWith(prefix) ? message.slice(prefix.length) : message;
    return new HttpError({ ...base, code: error.code, retryAfterMs: error.retryAfterMs, transient: error.transient }, what);
  }

  function isFresh(current: TokenState): boolean {
    // No lifetime said: nothing to renew ahead of; the 401 that ends it renews it (onUnauthorized).
    if (current.expiry === undefined) return true;
    // A token shorter-lived than twice the margin would otherwise be renewed on every call.
    const marginMs = Math.min(REFRESH_MARGIN_MS, current.expiry.lifetimeMs / 2);
    return now() < current.expiry.atMs - marginMs;
  }

  return {
    async authorize(signal) {
      // A renewal under way (after a 401) means the current token is suspect: wait for the new one.
      if (pending) await waitOrAbort(pending, signal);
      else if (!state || !isFresh(state)) await waitOrAbort(renew(), signal);
      const current = state;
      if (!current) throw new Error("PIM token renewal finished without a token");
      return `Bearer ${current.accessToken}`;
    },
    async onUnauthorized(signal) {
      await waitOrAbort(renew(), signal);
      return true;
    },
  };
}
