import type { FastifyReply } from "fastify";
import { withRedisDeadline } from "./redis-deadline.js";

/** A route's work given a signal, to be cancelled with its request. */
export type CancelledWithRequest = <T>(reply: FastifyReply, work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * `work` within the Redis deadline (withRedisDeadline), given a signal that is aborted when the
 * deadline passes or the client goes away before the answer was sent: a long read (the console's
 * history) then stops instead of going on for nobody.
 */
export function cancelledWithRequest(deadlineMs: number): CancelledWithRequest {
  return async (reply, work) => {
    const controller = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableFinished) controller.abort(new Error("the request closed before its answer"));
    };
    reply.raw.once("close", onClose);
    try {
      return await withRedisDeadline(deadlineMs, work(controller.signal));
    } catch (error) {
      controller.abort(error);
      throw error;
    } finally {
      reply.raw.off("close", onClose);
    }
  };
}
