import { request as httpRequest } from "node:http";
import Fastify from "fastify";
import { describe, expect } from "vitest";
import { cancelledWithRequest } from "../../../../src/server/http/cancelled-with-request.js";
import { RedisDeadlineError } from "../../../../src/server/http/redis-deadline.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

/** A route whose work lasts until its signal is aborted, and what aborted it. */
async function startSlowRoute(
  deadlineMs: number,
): Promise<{ url: string; started: () => boolean; reason: () => unknown; close: () => Promise<void> }> {
  const app = Fastify();
  const cancellable = cancelledWithRequest(deadlineMs);
  let started = false;
  let reason: unknown;
  app.get("/slow", async (_request, reply) =>
    cancellable(reply, (signal) => {
      started = true;
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => {
          reason = signal.reason;
          reject(signal.reason as Error);
        });
      });
    }),
  );
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return { url, started: () => started, reason: () => reason, close: () => app.close() };
}

describe("cancelledWithRequest: a route's work is cancelled with its request", () => {
  test("a client that goes away aborts the work", async ({ closeAfter }) => {
    const route = closeAfter(await startSlowRoute(600_000));
    const sent = httpRequest(`${route.url}/slow`);
    sent.on("error", () => undefined);
    sent.end();
    await waitFor(() => route.started(), { timeoutMs: 10_000, what: "the work to start" });
    sent.destroy();
    await waitFor(() => route.reason() !== undefined, { timeoutMs: 10_000, what: "the work to be aborted" });
    expect(String(route.reason())).toContain("the request closed before its answer");
  });

  test("the Redis deadline aborts the work as it answers", async ({ closeAfter }) => {
    const route = closeAfter(await startSlowRoute(50));
    const answer = await fetch(`${route.url}/slow`);
    expect(answer.status).toBeGreaterThanOrEqual(500);
    await waitFor(() => route.reason() !== undefined, { timeoutMs: 10_000, what: "the work to be aborted" });
    expect(route.reason()).toBeInstanceOf(RedisDeadlineError);
  });
});
