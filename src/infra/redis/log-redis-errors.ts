import type { Logger } from "pino";
import { isRedisConnectionFailure } from "./redis-unavailable-error.js";

/**
 * The error listener of a long-lived BullMQ object (a queue, a worker) named `source`. During a
 * Redis outage every such object reports each failed call; the connection already logs one line
 * per reconnect attempt, so those stay at debug (one JSON line each, no stack); anything else is
 * an error.
 */
export function logRedisErrors(logger: Logger): (source: string) => (error: Error) => void {
  return (source) => (error) => {
    if (isRedisConnectionFailure(error)) logger.debug({ source, err: error }, "Redis call failed");
    else logger.error({ source, err: error }, `${source} error`);
  };
}
