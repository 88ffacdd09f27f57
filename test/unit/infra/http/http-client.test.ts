import { getEventListeners } from "node:events";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createProcessBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";
import { createConcurrencyLimiter } from "../../../../src/infra/http/concurrency-limiter.js";
import { createHttpClient, type HttpClient, type HttpClientOptions } from "../../../../src/infra/http/http-client.js";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { BudgetPaused } from "../../../../src/infra/http/budget-paused.js";
import { createRequestStats } from "../../../../src/infra/http/request-stats.js";
import type { RetryPolicy } from "../../../../src/infra/http/retry-policy.js";
import { createSlidingWindowLimiter, type RateLimiter } from "../../../../src/infra/http/sliding-window-limiter.js";

const retry: RetryPolicy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1000 };
const logger = pino({ level: "silent" });

interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A canned answer; "hang" never answers, "hang-body" sends headers and part of a body, then stalls. */
type Reply =
  | { readonly status: number; readonly body?: string; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | "hang"
  | "hang-body";

let server: Server;
let origin: string;
let agent: Agent;
let seen: SeenRequest[] = [];
let replies: Reply[] = [];
let fallback: Reply = { status: 500, body: "no reply scripted" };
let inFlight = 0;
let maxInFlight = 0;

function script(...next: Reply[]): void {
  replies = next;
}

function answer(reply: Reply, res: ServerResponse): void {
  if (reply === "hang") return;
  if (reply === "hang-body") {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"partial":');
    return;
  }
  const send = (): void => {
    inFlight -= 1;
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body ?? "");
  };
  if (reply.delayMs === undefined) send();
  else setTimeout(send, reply.delayMs);
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      answer(replies.shift() ?? fallback, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  agent = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
  seen = [];
  replies = [];
  fallback = { status: 500, body: "no reply scripted" };
  inFlight = 0;
  maxInFlight = 0;
});

afterEach(async () => {
  // Hung requests keep their sockets open: drop them so the agent can close.
  server.closeAllConnections();
  await agent.close();
});

function client(overrides: Partial<HttpClientOptions> = {}): HttpClient {
  return createHttpClient({
    upstream: "test",
    baseUrl: `${origin}/api/v1`,
    dispatcher: agent,
    logger,
    retry,
    timeoutMs: 2000,
    random: () => 0.5,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw new Error(`expected an HttpError, got ${String(error)}`, { cause: error });
  }
  throw new Error("expected the request to fail");
}

/** A RateLimiter that only records how it is used. */
function recordingLimiter(): RateLimiter & { acquired: number; settled: number; pauses: number[] } {
  const limiter = {
    acquired: 0,
    settled: 0,
    pauses: [] as number[],
    async acquire(): Promise<() => void> {
      limiter.acquired += 1;
      return () => {
        limiter.settled += 1;
      };
    },
    pauseFor(ms: number): void {
      limiter.pauses.push(ms);
    },
  };
  return limiter;
}

const itemSchema = z.object({ id: z.number(), name: z.string() });

describe("createHttpClient: success", () => {
  it("parses a JSON answer with the schema and returns status and data", async () => {
    script({ status: 200, body: JSON.stringify({ id: 7, name: "red", extra: true }) });
    const http = client();
    const response = await http.send({ method: "GET", url: "items/7", schema: itemSchema });
    expect(response).toEqual({ status: 200, data: { id: 7, name: "red" } });
    expect(http.stats).toEqual({ requests: 1, reads: 1, writes: 0, retries: 0, rateLimited: 0, failures: 0 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe("GET");
    expect(seen[0]!.headers.accept).toBe("application/json");
    expect(seen[0]!.headers["content-type"]).toBeUndefined();
  });

  it("resolves a relative path against the base URL and sets query parameters, leaving out undefined ones", async () => {
    script({ status: 200, body: "{}" });
    await client().send({
      method: "GET",
      url: "attributes",
      query: { limit: 100, with_count: false, search: '{"a":1}', skip: undefined },
      schema: z.object({}),
    });
    const url = new URL(seen[0]!.url, origin);
    expect(url.pathname).toBe("/api/v1/attributes");
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: "100", with_count: "false", search: '{"a":1}' });
  });

  it("sends the client's headers with every request and a request's own headers with that request only", async () => {
    script({ status: 200, body: "{}" }, { status: 200, body: "{}" });
    const http = client({ headers: { pim_connection_id: "conn", access_token: "tok" } });
    await http.send({ method: "GET", url: "a", schema: z.object({}), headers: { "idempotency-key": "k-1" } });
    await http.send({ method: "GET", url: "b", schema: z.object({}) });
    expect(
      seen.map((request) => [request.headers.pim_connection_id, request.headers.access_token, request.headers["idempotency-key"]]),
    ).toEqual([
      ["conn", "tok", "k-1"],
      ["conn", "tok", undefined],
    ]);
  });

  it("accepts an absolute URL (e.g. a next-page link)", async () => {
    script({ status: 200, body: "{}" });
    await client().send({ method: "GET", url: `${origin}/elsewhere?page=2`, schema: z.object({}) });
    expect(seen[0]!.url).toBe("/elsewhere?page=2");
  });

  it("sends `json` as a JSON body and counts the request as a write", async () => {
    script({ status: 201, body: JSON.stringify({ ok: true }) });
    const http = client();
    const response = await http.send({
      method: "POST",
      url: "items",
      json: { name: "blue", n: [1, 2] },
      schema: z.object({ ok: z.boolean() }),
    });
    expect(response).toEqual({ status: 201, data: { ok: true } });
    expect(seen[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: "blue", n: [1, 2] });
    expect(http.stats).toMatchObject({ requests: 1, reads: 0, writes: 1 });
  });

  it("sends a raw body verbatim with its content type", async () => {
    script({ status: 200, body: "" });
    await client().send({
      method: "PATCH",
      url: "bulk",
      rawBody: { contentType: "application/vnd.akeneo.collection+json", body: '{"a":1}\n{"b":2}' },
      schema: z.undefined(),
    });
    expect(seen[0]!.headers["content-type"]).toBe("application/vnd.akeneo.collection+json");
    expect(seen[0]!.body).toBe('{"a":1}\n{"b":2}');
  });

  it("returns text for responseType text, and nothing for responseType none", async () => {
    script({ status: 200, body: '{"line":1}\n{"line":2}\n' }, { status: 200, body: "ignored body" });
    const http = client();
    const text = await http.send({ method: "PATCH", url: "a", responseType: "text", schema: z.string() });
    expect(text.data).toBe('{"line":1}\n{"line":2}\n');
    const none = await http.send({ method: "DELETE", url: "b", responseType: "none", schema: z.undefined() });
    expect(none).toEqual({ status: 200, data: undefined });
  });

  it("reads an empty JSON body as undefined", async () => {
    script({ status: 204 });
    const response = await client().send({ method: "POST", url: "x", json: {}, schema: z.undefined() });
    expect(response).toEqual({ status: 204, data: undefined });
  });

  it("sends the Authorization header from `authorize`, asked on every attempt", async () => {
    script({ status: 503 }, { status: 200, body: "{}" });
    let calls = 0;
    await client({
      authorize: async () => {
        calls += 1;
        return `Bearer token-${calls}`;
      },
    }).send({ method: "GET", url: "x", schema: z.object({}) });
    expect(seen.map((r) => r.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);
  });

  it("sends no Authorization header when `authorize` returns undefined", async () => {
    script({ status: 200, body: "{}" });
    await client({ authorize: async () => undefined }).send({ method: "GET", url: "x", schema: z.object({}) });
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("updates a shared stats object", async () => {
    script({ status: 200, body: "{}" }, { status: 200, body: "{}" });
    const stats = createRequestStats();
    const a = client({ stats });
    const b = client({ stats });
    await a.send({ method: "GET", url: "x", schema: z.object({}) });
    await b.send({ method: "POST", url: "y", schema: z.object({}) });
    expect(a.stats).toBe(stats);
    expect(stats).toMatchObject({ requests: 2, reads: 1, writes: 1 });
  });
});

describe("createHttpClient: response shape", () => {
  it("rejects an answer that does not match the schema: HTTP_RESPONSE_SHAPE, permanent, not retried", async () => {
    script({ status: 200, body: JSON.stringify({ id: "seven" }) });
    const http = client();
    const error = await failure(http.send({ method: "GET", url: "items/7", schema: itemSchema }));
    expect(error.code).toBe("HTTP_RESPONSE_SHAPE");
    expect(error.transient).toBe(false);
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/^\[test GET\] "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/items\/7": unexpected response shape: /);
    expect(error.message).toContain("id: ");
    expect(error.message).toContain("name: ");
    expect(error.cause).toBeInstanceOf(z.ZodError);
    expect(seen).toHaveLength(1);
    expect(http.stats).toMatchObject({ requests: 1, retries: 0, failures: 1 });
  });

  it("rejects a body that is not JSON: HTTP_RESPONSE_SHAPE, permanent, not retried", async () => {
    script({ status: 200, body: "<html>oops</html>" });
    const http = client();
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.unknown() }));
    expect(error.code).toBe("HTTP_RESPONSE_SHAPE");
    expect(error.transient).toBe(false);
    expect(error.message).toContain("unreadable response body");
    expect(seen).toHaveLength(1);
  });
});

describe("createHttpClient: status errors and retries", () => {
  it("fails at once on 404 with the status, body excerpt and a log-line message", async () => {
    script({ status: 404, body: "no such item" });
    const http = client();
    const error = await failure(http.send({ method: "GET", url: "items/9", schema: itemSchema }));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      code: "HTTP_STATUS",
      status: 404,
      transient: false,
      bodyExcerpt: "no such item",
      upstream: "test",
      method: "GET",
    });
    expect(error.url).toBe(`${origin}/api/v1/items/9`);
    expect(error.message).toBe(`[test GET] "${origin}/api/v1/items/9": 404 no such item`);
    expect(seen).toHaveLength(1);
    expect(http.stats).toEqual({ requests: 1, reads: 1, writes: 0, retries: 0, rateLimited: 0, failures: 1 });
  });

  it("keeps only the first 300 characters of an error body", async () => {
    script({ status: 400, body: "x".repeat(1000) });
    const error = await failure(client().send({ method: "GET", url: "x", schema: z.unknown() }));
    expect(error.bodyExcerpt).toBe("x".repeat(300));
    expect(error.message.endsWith(`400 ${"x".repeat(300)}`)).toBe(true);
  });

  it("retries 503 twice then succeeds, counting two retries", async () => {
    script({ status: 503, body: "down" }, { status: 503, body: "down" }, { status: 200, body: JSON.stringify({ id: 1, name: "ok" }) });
    const http = client();
    const response = await http.send({ method: "GET", url: "items/1", schema: itemSchema });
    expect(response.data).toEqual({ id: 1, name: "ok" });
    expect(seen).toHaveLength(3);
    expect(http.stats).toEqual({ requests: 3, reads: 3, writes: 0, retries: 2, rateLimited: 0, failures: 0 });
  });

  it("gives up after maxAttempts with the last error", async () => {
    script({ status: 503, body: "one" }, { status: 502, body: "two" }, { status: 504, body: "three" }, { status: 200, body: "{}" });
    const http = client();
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error.status).toBe(504);
    expect(error.transient).toBe(true);
    expect(seen).toHaveLength(3);
    expect(http.stats).toMatchObject({ requests: 3, retries: 2, failures: 1 });
  });

  it("retries 429 with Retry-After: 0, counting it as rate limited and pausing the limiter", async () => {
    script({ status: 429, body: "slow down", headers: { "retry-after": "0" } }, { status: 200, body: "{}" });
    const limiter = recordingLimiter();
    const http = client({ rateLimiter: limiter });
    await expect(http.send({ method: "GET", url: "x", schema: z.object({}) })).resolves.toEqual({ status: 200, data: {} });
    expect(seen).toHaveLength(2);
    expect(http.stats).toMatchObject({ requests: 2, retries: 1, rateLimited: 1, failures: 0 });
    expect(limiter.pauses).toEqual([0]);
    expect(limiter.acquired).toBe(2);
  });

  it("retries 429 without Retry-After (backoff), and pauses the limiter one window (the identity is over budget for everyone)", async () => {
    script({ status: 429 }, { status: 200, body: "{}" });
    const limiter = recordingLimiter();
    const http = client({ rateLimiter: limiter });
    await http.send({ method: "GET", url: "x", schema: z.object({}) });
    expect(seen).toHaveLength(2);
    expect(limiter.pauses).toEqual([1000]);
    expect(http.stats.rateLimited).toBe(1);
  });

  it("does not wait for a Retry-After above maxRetryAfterMs: fails with it, but still pauses the limiter", async () => {
    script({ status: 429, headers: { "retry-after": "5" } }, { status: 200, body: "{}" });
    const limiter = recordingLimiter();
    const http = client({ rateLimiter: limiter });
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 5000, transient: true });
    expect(seen).toHaveLength(1);
    expect(limiter.pauses).toEqual([5000]);
    expect(http.stats).toMatchObject({ rateLimited: 1, retries: 0, failures: 1 });
  });

  it("a budget paused for longer than it waits: not sent, HTTP_PAUSED (transient, the pause's end as Retry-After), not retried in-process", async () => {
    script({ status: 200, body: "{}" });
    let asked = 0;
    const paused: RateLimiter = {
      acquire: () => {
        asked += 1;
        return Promise.reject(new BudgetPaused(900_000, 1_000));
      },
      pauseFor: () => undefined,
    };
    // Even a policy that would wait 900 s does not: the budget refused to, so a retry here would be that wait.
    const http = client({ rateLimiter: paused, retry: { ...retry, maxRetryAfterMs: 1_000_000 } });
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error).toMatchObject({ code: "HTTP_PAUSED", transient: true, retryable: true, retryAfterMs: 900_000, status: undefined });
    expect(error.message).toMatch(/^\[test GET\] ".*\/api\/v1\/x": not sent: the upstream budget is paused for 900000 ms more/);
    expect(error.cause).toBeInstanceOf(BudgetPaused);
    expect(asked).toBe(1);
    expect(seen).toHaveLength(0);
    expect(http.stats).toMatchObject({ requests: 0, retries: 0, failures: 1 });
  });

  it("the extra limiter paused for longer than it waits: the write is not sent, HTTP_PAUSED", async () => {
    script({ status: 200, body: "{}" });
    const extra: RateLimiter = { acquire: () => Promise.reject(new BudgetPaused(90_000, 1_000)), pauseFor: () => undefined };
    const error = await failure(client().send({ method: "PATCH", url: "x", json: {}, extraLimiter: extra, schema: z.object({}) }));
    expect(error).toMatchObject({ code: "HTTP_PAUSED", method: "PATCH", transient: true, retryAfterMs: 90_000 });
    expect(seen).toHaveLength(0);
  });

  it("reads Retry-After on 503 but ignores it on other statuses", async () => {
    script({ status: 503, headers: { "retry-after": "0" } }, { status: 200, body: "{}" });
    await client().send({ method: "GET", url: "x", schema: z.object({}) });
    expect(seen).toHaveLength(2);

    script({ status: 500, headers: { "retry-after": "7" } });
    const error = await failure(client({ retry: { ...retry, maxAttempts: 1 } }).send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error.status).toBe(500);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("does not retry a non-idempotent PATCH on 500", async () => {
    script({ status: 500, body: "boom" }, { status: 200, body: "{}" });
    const http = client();
    const error = await failure(http.send({ method: "PATCH", url: "x", json: {}, schema: z.object({}) }));
    expect(error.status).toBe(500);
    expect(seen).toHaveLength(1);
    expect(http.stats).toMatchObject({ requests: 1, writes: 1, retries: 0, failures: 1 });
  });

  it("retries a non-idempotent PATCH on 429", async () => {
    script({ status: 429 }, { status: 200, body: "{}" });
    const http = client();
    await expect(http.send({ method: "PATCH", url: "x", json: {}, schema: z.object({}) })).resolves.toEqual({ status: 200, data: {} });
    expect(seen.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
    expect(http.stats).toMatchObject({ requests: 2, writes: 2, retries: 1, rateLimited: 1 });
  });

  it("retries a PATCH marked idempotent on 500", async () => {
    script({ status: 500 }, { status: 200, body: "{}" });
    await client().send({ method: "PATCH", url: "x", json: {}, idempotent: true, schema: z.object({}) });
    expect(seen).toHaveLength(2);
  });

  it("does not retry a GET marked non-idempotent on 503", async () => {
    script({ status: 503 }, { status: 200, body: "{}" });
    await failure(client().send({ method: "GET", url: "x", idempotent: false, schema: z.object({}) }));
    expect(seen).toHaveLength(1);
  });
});

describe("createHttpClient: 401", () => {
  it("calls onUnauthorized once, then tries again with the new credentials (not counted as a retry)", async () => {
    script({ status: 401, body: "expired" }, { status: 200, body: "{}" });
    let token = "old";
    let refreshes = 0;
    const http = client({
      authorize: async () => `Bearer ${token}`,
      onUnauthorized: async () => {
        refreshes += 1;
        token = "new";
        return true;
      },
    });
    await expect(http.send({ method: "GET", url: "x", schema: z.object({}) })).resolves.toEqual({ status: 200, data: {} });
    expect(refreshes).toBe(1);
    expect(seen.map((r) => r.headers.authorization)).toEqual(["Bearer old", "Bearer new"]);
    expect(http.stats).toMatchObject({ requests: 2, retries: 0, failures: 0 });
  });

  it("refreshes once only: a second 401 fails", async () => {
    script({ status: 401 }, { status: 401, body: "still no" }, { status: 200, body: "{}" });
    let refreshes = 0;
    const http = client({
      onUnauthorized: async () => {
        refreshes += 1;
        return true;
      },
    });
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error).toMatchObject({ status: 401, transient: false, bodyExcerpt: "still no" });
    expect(refreshes).toBe(1);
    expect(seen).toHaveLength(2);
    expect(http.stats).toMatchObject({ requests: 2, failures: 1 });
  });

  it("fails at once when onUnauthorized cannot refresh", async () => {
    script({ status: 401 }, { status: 200, body: "{}" });
    let refreshes = 0;
    const http = client({
      onUnauthorized: async () => {
        refreshes += 1;
        return false;
      },
    });
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error.status).toBe(401);
    expect(refreshes).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it("fails at once on 401 without onUnauthorized", async () => {
    script({ status: 401 }, { status: 200, body: "{}" });
    await failure(client().send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(seen).toHaveLength(1);
  });

  it("a refresh does not use up an attempt: 401, then 503 twice, then 200 still succeeds", async () => {
    script({ status: 401 }, { status: 503 }, { status: 503 }, { status: 200, body: "{}" });
    const http = client({ onUnauthorized: async () => true });
    await expect(http.send({ method: "GET", url: "x", schema: z.object({}) })).resolves.toEqual({ status: 200, data: {} });
    expect(seen).toHaveLength(4);
    expect(http.stats).toMatchObject({ requests: 4, retries: 2 });
  });
});

describe("createHttpClient: timeouts, network errors, aborts", () => {
  it("fails with HTTP_TIMEOUT (transient) when the server never answers, after every attempt", async () => {
    fallback = "hang";
    const http = client({ timeoutMs: 200 });
    const error = await failure(http.send({ method: "GET", url: "slow", schema: z.object({}) }));
    expect(error.code).toBe("HTTP_TIMEOUT");
    expect(error.transient).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toBe(`[test GET] "${origin}/api/v1/slow": no answer within 200 ms`);
    expect(seen).toHaveLength(3);
    expect(http.stats).toEqual({ requests: 3, reads: 3, writes: 0, retries: 2, rateLimited: 0, failures: 1 });
  });

  it("fails with HTTP_TIMEOUT when the body stalls, and does not retry a non-idempotent POST", async () => {
    fallback = "hang-body";
    const http = client({ timeoutMs: 200 });
    const error = await failure(http.send({ method: "POST", url: "slow", json: {}, schema: z.unknown() }));
    expect(error.code).toBe("HTTP_TIMEOUT");
    expect(error.transient).toBe(true);
    expect(error.status).toBe(200);
    expect(error.message).toContain("body not received within 200 ms");
    expect(seen).toHaveLength(1);
    expect(http.stats).toMatchObject({ requests: 1, writes: 1, retries: 0, failures: 1 });
  });

  it("fails with HTTP_NETWORK (transient) when nothing listens, after every attempt", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const http = client({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await failure(http.send({ method: "GET", url: "x", schema: z.object({}) }));
    expect(error.code).toBe("HTTP_NETWORK");
    expect(error.transient).toBe(true);
    expect(error.message).toContain("network error: ");
    expect(http.stats).toMatchObject({ requests: 3, retries: 2, failures: 1 });
  });

  it("passes the caller's abort through as is: no HttpError, no retry", async () => {
    fallback = "hang";
    const http = client();
    const controller = new AbortController();
    const sending = http.send({ method: "GET", url: "x", schema: z.object({}), signal: controller.signal });
    const outcome = sending.then(
      () => "resolved",
      (error: unknown) => error,
    );
    // Abort once the server has the request.
    await expect.poll(() => seen.length, { timeout: 2000, interval: 5 }).toBe(1);
    const reason = new Error("user cancelled");
    controller.abort(reason);
    const error = await outcome;
    expect(error).toBe(reason);
    expect(seen).toHaveLength(1);
    expect(http.stats).toMatchObject({ requests: 1, retries: 0 });
  });
  it("an abort during the backoff between attempts ends the wait (a minute here) at once", async () => {
    script({ status: 503 }, { status: 200, body: "{}" });
    const controller = new AbortController();
    const http = client({ retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, maxRetryAfterMs: 1000 } });
    const outcome = http.send({ method: "GET", url: "x", schema: z.object({}), signal: controller.signal }).then(
      () => "resolved",
      (error: unknown) => error,
    );
    await expect.poll(() => http.stats.retries, { timeout: 2000, interval: 5 }).toBe(1);
    controller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(HttpError);
    expect((error as Error).name).toBe("AbortError");
    expect(seen).toHaveLength(1);
  });
});

describe("createHttpClient: limiters", () => {
  it("never has more requests in flight than the concurrency limiter allows", async () => {
    fallback = { status: 200, body: "{}", delayMs: 30 };
    const http = client({ concurrency: createConcurrencyLimiter(2) });
    await Promise.all(Array.from({ length: 6 }, () => http.send({ method: "GET", url: "x", schema: z.object({}) })));
    expect(seen).toHaveLength(6);
    expect(maxInFlight).toBe(2);
  });

  it("acquires the rate limiter and the extra limiter once per attempt", async () => {
    script({ status: 503 }, { status: 200, body: "{}" });
    const limiter = recordingLimiter();
    const extra = recordingLimiter();
    await client({ rateLimiter: limiter }).send({ method: "PATCH", url: "x", idempotent: true, extraLimiter: extra, schema: z.object({}) });
    expect(limiter.acquired).toBe(2);
    expect(extra.acquired).toBe(2);
    // Every attempt's slot is settled once its answer (or failure) is in.
    expect(limiter.settled).toBe(2);
    expect(extra.settled).toBe(2);
  });

  // Regression: a request held back by the limiter (e.g. every caller paused by a 429's
  // Retry-After) for longer than timeoutMs must not fail with HTTP_TIMEOUT before it is sent.
  it("time spent waiting in the rate limiter does not count against the request timeout", async () => {
    script({ status: 200, body: "{}" });
    const limiter = createSlidingWindowLimiter({ limit: 10 });
    const http = client({ timeoutMs: 200, rateLimiter: limiter, retry: { ...retry, maxAttempts: 1 } });
    limiter.pauseFor(400);
    const outcome = await http.send({ method: "GET", url: "x", schema: z.object({}) }).then(
      (response) => response,
      (error: unknown) => error,
    );
    expect(outcome).toEqual({ status: 200, data: {} });
    expect(seen).toHaveLength(1);
    expect(http.stats).toMatchObject({ requests: 1, retries: 0 });
  });

  it("time spent waiting in the extra limiter does not count against the request timeout", async () => {
    script({ status: 200, body: "{}" });
    const extra = createSlidingWindowLimiter({ limit: 10 });
    extra.pauseFor(400);
    const http = client({ timeoutMs: 200, retry: { ...retry, maxAttempts: 1 } });
    const outcome = await http.send({ method: "PATCH", url: "x", json: {}, extraLimiter: extra, schema: z.object({}) }).then(
      (response) => response,
      (error: unknown) => error,
    );
    expect(outcome).toEqual({ status: 200, data: {} });
    expect(seen).toHaveLength(1);
  });

  it("calls waiting at once with one signal (a job's) leave no listeners on it: each call listens on a signal of its own", async () => {
    fallback = { status: 200, body: "{}", delayMs: 5 };
    // The budgets a project's clients wait in (fair turns, then the slot), one slot for all.
    const budgets = createProcessBudgets({ maxPauseMs: 60_000 });
    const http = client({
      concurrency: budgets.slots([{ identity: "pim", limit: 1 }], "67"),
      rateLimiter: budgets.rate("pim", { limit: 1000 }, "67"),
    });
    const job = new AbortController();
    const calls = Array.from({ length: 30 }, () => http.send({ method: "GET", url: "x", schema: z.object({}), signal: job.signal }));
    // One call is at the server, 29 wait in the budget's line.
    await expect.poll(() => seen.length, { timeout: 2000, interval: 1 }).toBeGreaterThanOrEqual(1);
    expect(getEventListeners(job.signal, "abort").length).toBeLessThanOrEqual(1);
    await Promise.all(calls);
    expect(getEventListeners(job.signal, "abort")).toHaveLength(0);
    // Still aborted through it: a waiting call leaves at once.
    fallback = "hang";
    const waiting = [
      http.send({ method: "GET", url: "x", schema: z.object({}), signal: job.signal }),
      http.send({ method: "GET", url: "x", schema: z.object({}), signal: job.signal }),
    ];
    await expect.poll(() => seen.length, { timeout: 2000, interval: 1 }).toBe(31);
    const reason = new Error("job cancelled");
    job.abort(reason);
    await expect(Promise.all(waiting)).rejects.toBe(reason);
    expect(seen).toHaveLength(31);
  });

  it("a request waiting for the extra limiter does not hold a concurrency slot", async () => {
    fallback = { status: 200, body: "{}" };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const extra: RateLimiter = { acquire: () => gate.then(() => () => undefined), pauseFor: () => undefined };
    const http = client({ concurrency: createConcurrencyLimiter(1) });
    const write = http.send({ method: "PATCH", url: "write", json: {}, extraLimiter: extra, schema: z.object({}) });
    // The read gets the only slot although the write asked first.
    await expect(http.send({ method: "GET", url: "read", schema: z.object({}) })).resolves.toEqual({ status: 200, data: {} });
    expect(seen.map((r) => r.url)).toEqual(["/api/v1/read"]);
    release();
    await write;
    expect(seen.map((r) => r.url)).toEqual(["/api/v1/read", "/api/v1/write"]);
  });
});

describe("createHttpClient: 3xx answers", () => {
  it.each([301, 302, 303, 307, 308])(
    "%i is HTTP_REDIRECT, permanent, never followed, naming the Location's origin only",
    async (status) => {
      script({
        status,
        body: "<html>moved</html>",
        headers: { location: "https://user:hunter2-pass@elsewhere.example:8443/path?token=abc123secret" },
      });
      const error = await failure(
        client().send({ method: "PATCH", url: "things/1", json: { a: 1 }, schema: z.unknown(), idempotent: true }),
      );
      expect(error).toMatchObject({ code: "HTTP_REDIRECT", status, transient: false });
      expect(error.message).toContain(`${status} redirect to https://elsewhere.example:8443`);
      expect(error.message).not.toMatch(/hunter2|abc123secret|\/path|user:/);
      // Not retried, and not followed anywhere.
      expect(seen).toHaveLength(1);
    },
  );

  it("a 3xx without a Location says so", async () => {
    script({ status: 307 });
    const error = await failure(client().send({ method: "GET", url: "things", schema: z.unknown() }));
    expect(error.message).toContain("307 redirect to (no Location header)");
  });

  it("a 2xx HTML page is not an answer (HTTP_RESPONSE_SHAPE), even for responseType none, unless the client takes any body", async () => {
    script({ status: 200, body: "<html>maintenance</html>", headers: { "content-type": "text/html; charset=utf-8" } });
    const error = await failure(client().send({ method: "PUT", url: "things", json: [], schema: z.unknown(), responseType: "none" }));
    expect(error).toMatchObject({ code: "HTTP_RESPONSE_SHAPE", status: 200, transient: false });
    script({ status: 200, body: "<html>ok</html>", headers: { "content-type": "text/html" } });
    await expect(
      client({ htmlMayAnswer: true }).send({ method: "POST", url: "hook", json: {}, schema: z.unknown(), responseType: "none" }),
    ).resolves.toMatchObject({ status: 200 });
  });
});

describe("createHttpClient: echoed credentials", () => {
  const token = "tok-0123456789abcdef";
  const password = "p@ss word/+=ü";

  it("removes the Authorization credentials and the listed secrets, in every spelling, from the error, before cutting the excerpt", async () => {
    const echo = [
      `x`.repeat(280),
      token,
      Buffer.from(token).toString("base64"),
      encodeURIComponent(password),
      JSON.stringify({ password }),
    ].join(" | ");
    script({ status: 400, body: echo });
    const error = await failure(
      client({ authorize: () => Promise.resolve(`Bearer ${token}`), secrets: () => [password] }).send({
        method: "POST",
        url: "login",
        json: { password },
        schema: z.unknown(),
      }),
    );
    const text = `${error.message}\n${error.stack ?? ""}\n${error.bodyExcerpt ?? ""}`;
    // The excerpt is cut at 300 characters after scrubbing: no half secret at its end.
    expect(text).not.toContain(token.slice(0, 6));
    expect(text).not.toContain(Buffer.from(token).toString("base64").slice(2, 12));
    expect(text).not.toContain(encodeURIComponent(password));
    expect(text).not.toContain(JSON.stringify(password).slice(1, -1));
    expect(error.bodyExcerpt).toContain("[redacted]");
  });

  it("removes a Basic pair: the encoded header and the user and password it decodes to", async () => {
    const basic = Buffer.from("client-id-1:client-secret-1").toString("base64");
    script({ status: 500, body: `authorization: Basic ${basic}; user client-id-1 pass client-secret-1` });
    const error = await failure(
      client({ authorize: () => Promise.resolve(`Basic ${basic}`), retry: { ...retry, maxAttempts: 1 } }).send({
        method: "POST",
        url: "token",
        json: {},
        schema: z.unknown(),
      }),
    );
    expect(error.message).not.toMatch(new RegExp(`${basic}|client-id-1|client-secret-1`));
  });
});
