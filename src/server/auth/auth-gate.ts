import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { AuthThrottleSettings } from "../../settings/settings-schema.js";
import type { AuthRefusalObserver, AuthSurface } from "./auth-refusal.js";
import { createAuthRefusalLog } from "./auth-refusal-log.js";
import { createLoginThrottle } from "./login-throttle.js";

/** What a request offers to prove who it is. */
export interface PresentedCredentials<T> {
  /** Whether it carried credentials at all (a browser's first request does not). */
  readonly present: boolean;
  /** The user name it gave, when its scheme has one (HTTP Basic). */
  readonly user?: string | undefined;
  /** Checks the credentials: who they prove, or null. Not called while the client is throttled. */
  readonly verify: () => T | null;
  /** Answers the surface's 401 (with its WWW-Authenticate). */
  readonly challenge: (reply: FastifyReply) => FastifyReply;
}

export interface AuthGate {
  /**
   * Who the request is, or null once it has been answered: 429 with Retry-After while its
   * address or user name has used up its failures (the credentials are then not checked), 401
   * otherwise. Wrong credentials count against the address and the user name; right ones do not.
   */
  admit<T>(request: FastifyRequest, reply: FastifyReply, credentials: PresentedCredentials<T>): Promise<T | null>;
  /** A known user refused what they asked for (the admin route table): warned and counted. */
  forbidden(request: FastifyRequest, user: string, why: string): void;
}

export interface AuthGateOptions {
  readonly surface: AuthSurface;
  readonly limits: AuthThrottleSettings;
  readonly logger: Logger;
  readonly observer?: AuthRefusalObserver | undefined;
}

/**
 * The one way the admin, trigger and metrics routes check credentials: a throttle per client
 * address and per user name, a rate-limited warning per refusal, a metric. Each surface has
 * its own gate, so a script with a stale trigger token does not lock the dashboard's users out.
 */
export function createAuthGate(options: AuthGateOptions): AuthGate {
  const { surface } = options;
  const log = options.logger.child({ component: "auth" });
  const throttle = createLoginThrottle(options.limits);
  const refusals = createAuthRefusalLog(log, options.limits.log_interval_ms);
  const count = (reason: Parameters<AuthRefusalObserver["authRefused"]>[1]): void => options.observer?.authRefused(surface, reason);

  return {
    async admit(request, reply, credentials) {
      const keys = [`address:${request.ip}`, ...(credentials.user === undefined ? [] : [`user:${credentials.user}`])];
      const waitMs = await throttle.waitMs(keys);
      if (waitMs !== null) {
        count("throttled");
        refusals.refused({ surface, reason: "throttled", ip: request.ip, user: credentials.user });
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        void reply
          .code(429)
          .header("retry-after", String(seconds))
          .send({ error: `too many failed logins; try again in ${seconds} s` });
        return null;
      }
      if (!credentials.present) {
        // Not logged: every browser's first request to the dashboard asks without credentials.
        count("missing");
        void credentials.challenge(reply);
        return null;
      }
      const identity = credentials.verify();
      if (identity !== null) return identity;
      await throttle.failed(keys);
      count("invalid");
      refusals.refused({ surface, reason: "invalid", ip: request.ip, user: credentials.user });
      void credentials.challenge(reply);
      return null;
    },
    forbidden(request, user, why) {
      count("forbidden");
      log.warn({ surface, ip: request.ip, user, method: request.method, url: request.url, why }, "request refused");
    },
  };
}
