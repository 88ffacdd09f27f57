import type { FastifyReply, FastifyRequest } from "fastify";

/** Seconds a client is asked to wait while the worker starts (as for a Redis that is slow to answer). */
const RETRY_AFTER_SECONDS = 5;

/**
 * An onRequest hook for the routes that need the started worker (trigger, admin): until
 * `started()` they are answered 503 with Retry-After at once, so that a worker waiting for Redis
 * at start neither hangs a caller nor answers 500. It runs before the routes' own
 * authentication: the answer says nothing but that the worker is starting.
 */
export function refuseWhileStarting(started: () => boolean) {
  return async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (started()) return;
    await reply
      .code(503)
      .header("retry-after", String(RETRY_AFTER_SECONDS))
      .send({ error: "the worker is starting (waiting for Redis); try again" });
  };
}
