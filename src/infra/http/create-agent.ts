// The Agent alone, not undici's index (see send-request.ts).
import Agent from "undici/lib/dispatcher/agent.js";

/** How long an idle socket waits for the next request before it is closed (the pool's, not a setting). */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
/** A connection not up by then fails as a network error, which the retry policy handles. */
const CONNECT_TIMEOUT_MS = 10_000;

/** One keep-alive connection pool per upstream; `connections` bounds sockets per origin. */
export function createAgent(options: { readonly connections: number }): Agent {
  return new Agent({
    connections: options.connections,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connect: { timeout: CONNECT_TIMEOUT_MS },
  });
}
