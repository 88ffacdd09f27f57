import { describe, expect, it } from "vitest";
import { HttpError, type HttpErrorCode } from "../../../../src/infra/http/http-error.js";
import { decideRetry, type RetryPolicy } from "../../../../src/infra/http/retry-policy.js";
import { retryPolicyOf } from "../../../../src/infra/http/retry-policy-of.js";
import { DEFAULT_SETTINGS } from "../../../support/default-settings.js";

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

function httpError(options: { status?: number; transient: boolean; retryAfterMs?: number; code?: HttpErrorCode }): HttpError {
  return new HttpError(
    {
      code: options.code ?? (options.status === undefined ? "HTTP_NETWORK" : "HTTP_STATUS"),
      upstream: "test",
      method: "GET",
      url: "http://example.test/x",
      status: options.status,
      retryAfterMs: options.retryAfterMs,
      transient: options.transient,
    },
    "failed",
  );
}

function decide(
  error: HttpError,
  overrides: { attempt?: number; idempotent?: boolean; policy?: RetryPolicy; random?: () => number } = {},
): ReturnType<typeof decideRetry> {
  return decideRetry({
    error,
    attempt: overrides.attempt ?? 1,
    idempotent: overrides.idempotent ?? true,
    policy: overrides.policy ?? policy,
    random: overrides.random ?? (() => 0.5),
  });
}

describe("retryPolicyOf: the `http` settings are the only source of the policy", () => {
  it("takes each number from its own key", () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      http: { ...DEFAULT_SETTINGS.http, max_attempts: 3, base_delay_ms: 7, max_delay_ms: 70, max_retry_after_ms: 700 },
    };
    expect(retryPolicyOf(settings)).toEqual({ maxAttempts: 3, baseDelayMs: 7, maxDelayMs: 70, maxRetryAfterMs: 700 });
  });

  it("is bounded with the schema's defaults", () => {
    const policy = retryPolicyOf(DEFAULT_SETTINGS);
    expect(policy.maxAttempts).toBeLessThanOrEqual(10);
    expect(policy.maxDelayMs).toBeGreaterThanOrEqual(policy.baseDelayMs);
    expect(Number.isFinite(policy.maxRetryAfterMs)).toBe(true);
  });
});

describe("decideRetry: what is retried", () => {
  it.each([400, 401, 403, 404, 409, 422])("never retries a permanent %i", (status) => {
    expect(decide(httpError({ status, transient: false }))).toEqual({ retry: false });
  });

  it("never retries a response-shape error", () => {
    expect(decide(httpError({ status: 200, transient: false, code: "HTTP_RESPONSE_SHAPE" }))).toEqual({ retry: false });
  });

  it.each([408, 425, 429, 500, 502, 503, 504])("retries a transient %i on an idempotent request", (status) => {
    expect(decide(httpError({ status, transient: true })).retry).toBe(true);
  });

  it("retries a transient network error or timeout (no status) on an idempotent request", () => {
    expect(decide(httpError({ transient: true, code: "HTTP_TIMEOUT" })).retry).toBe(true);
    expect(decide(httpError({ transient: true, code: "HTTP_NETWORK" })).retry).toBe(true);
  });

  it.each([408, 425, 500, 502, 503, 504])("does not retry a non-idempotent request on %i (it may have been applied)", (status) => {
    expect(decide(httpError({ status, transient: true }), { idempotent: false })).toEqual({ retry: false });
  });

  it("does not retry a non-idempotent request after a timeout or network error", () => {
    expect(decide(httpError({ transient: true, code: "HTTP_TIMEOUT" }), { idempotent: false })).toEqual({ retry: false });
    expect(decide(httpError({ transient: true, code: "HTTP_NETWORK" }), { idempotent: false })).toEqual({ retry: false });
  });

  it("retries a non-idempotent request on 429 (rejected before processing)", () => {
    expect(decide(httpError({ status: 429, transient: true }), { idempotent: false }).retry).toBe(true);
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 40 }), { idempotent: false })).toEqual({
      retry: true,
      delayMs: 40,
    });
  });
});

describe("decideRetry: attempts", () => {
  it("retries while attempts remain and stops at maxAttempts (attempts count the first one)", () => {
    const error = httpError({ status: 503, transient: true });
    expect(decide(error, { attempt: 1 }).retry).toBe(true);
    expect(decide(error, { attempt: 3 }).retry).toBe(true);
    expect(decide(error, { attempt: 4 })).toEqual({ retry: false });
    expect(decide(error, { attempt: 5 })).toEqual({ retry: false });
  });

  it("never retries with maxAttempts 1", () => {
    expect(decide(httpError({ status: 503, transient: true }), { policy: { ...policy, maxAttempts: 1 } })).toEqual({ retry: false });
  });

  it("stops at maxAttempts even with a usable Retry-After", () => {
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 10 }), { attempt: 4 })).toEqual({ retry: false });
  });
});

describe("decideRetry: Retry-After", () => {
  it("waits exactly Retry-After, ignoring backoff and jitter", () => {
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 1234 }), { random: () => 0 })).toEqual({
      retry: true,
      delayMs: 1234,
    });
    expect(decide(httpError({ status: 503, transient: true, retryAfterMs: 3000 }), { attempt: 3 })).toEqual({ retry: true, delayMs: 3000 });
  });

  it("retries at once on Retry-After 0", () => {
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 0 }))).toEqual({ retry: true, delayMs: 0 });
  });

  it("waits a Retry-After equal to maxRetryAfterMs", () => {
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 5000 }))).toEqual({ retry: true, delayMs: 5000 });
  });

  it("gives up on a Retry-After longer than maxRetryAfterMs", () => {
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 5001 }))).toEqual({ retry: false });
  });

  it("gives up on any positive Retry-After with maxRetryAfterMs 0, but still takes 0", () => {
    const strict = { ...policy, maxRetryAfterMs: 0 };
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 1 }), { policy: strict })).toEqual({ retry: false });
    expect(decide(httpError({ status: 429, transient: true, retryAfterMs: 0 }), { policy: strict })).toEqual({ retry: true, delayMs: 0 });
  });
});

describe("decideRetry: exponential backoff with full jitter", () => {
  const error = httpError({ status: 503, transient: true });

  it.each([
    // attempt, random, expected delay (ceiling = min(1000, 100 * 2^(attempt-1)))
    [1, 0.5, 50], // ceiling 100 → 50, at the floor
    [1, 0.99, 99],
    [2, 0.5, 100], // ceiling 200
    [2, 0.999, 200],
    [3, 0.5, 200], // ceiling 400
    [3, 0.75, 300],
  ])("attempt %i with random %f waits %i ms", (attempt, random, expected) => {
    expect(decide(error, { attempt, random: () => random, policy: { ...policy, maxAttempts: 20 } })).toEqual({
      retry: true,
      delayMs: expected,
    });
  });

  it("never waits less than half the base delay (random 0)", () => {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect(decide(error, { attempt, random: () => 0, policy: { ...policy, maxAttempts: 20 } })).toEqual({ retry: true, delayMs: 50 });
    }
  });

  it("caps the ceiling at maxDelayMs however many attempts were made", () => {
    const many = { ...policy, maxAttempts: 100 };
    expect(decide(error, { attempt: 5, random: () => 0.999999, policy: many })).toEqual({ retry: true, delayMs: 1000 });
    expect(decide(error, { attempt: 60, random: () => 0.999999, policy: many })).toEqual({ retry: true, delayMs: 1000 });
    expect(decide(error, { attempt: 60, random: () => 0.5, policy: many })).toEqual({ retry: true, delayMs: 500 });
  });

  it("keeps every delay within [base/2, maxDelay] for any random value and attempt (seeded sweep)", () => {
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const many = { ...policy, maxAttempts: 100 };
    for (let i = 0; i < 500; i += 1) {
      const attempt = 1 + Math.floor(next() * 30);
      const r = next();
      const decision = decide(error, { attempt, random: () => r, policy: many });
      expect(decision.retry).toBe(true);
      if (!decision.retry) continue;
      expect(decision.delayMs).toBeGreaterThanOrEqual(50);
      expect(decision.delayMs).toBeLessThanOrEqual(Math.min(1000, 100 * 2 ** (attempt - 1)));
    }
  });

  it("draws from the injected random source once per decision", () => {
    let calls = 0;
    decide(error, {
      random: () => {
        calls += 1;
        return 0.3;
      },
    });
    expect(calls).toBe(1);
  });
});
