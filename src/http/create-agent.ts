import { Agent } from "undici";

/** One keep-alive connection pool per upstream; `connections` bounds sockets per origin. */
export function createAgent(options: { readonly connections: number; readonly connectTimeoutMs?: number }): Agent {
  return new Agent({
    connections: options.connections,
    keepAliveTimeout: 10_000,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
  });
}
