import { Agent } from "undici";
import { createPimClient, type PimClient, type PimClientOptions } from "../../../../src/upstreams/pim/pim-client.js";
import { startFixtureServer, type FixtureServer, type FixtureServerOptions } from "./fixture-server.js";
import { createMemoryLogger } from "./memory-logger.js";
import { DEFAULT_PIM_CLIENT_LIMITS } from "../../../support/default-settings.js";

/** Recognisable values, so a leak into a log line or an error message is easy to spot. */
export const CREDENTIALS = {
  clientId: "pim_sync_client",
  secret: "SECRET-7f3a9c-never-log",
  username: "pim_sync_api_user",
  password: "PASSWORD-2b8e1d-never-log",
} as const;

/** Short delays and no randomness: the tests stay fast and deterministic. */
export const TEST_RETRY = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 5000 } as const;

export interface PimHarness {
  readonly server: FixtureServer;
  readonly client: PimClient;
  readonly logs: () => string;
  close(): Promise<void>;
}

/** A fixture server and a client pointed at it, with its own connection pool. */
export async function startPimHarness(
  overrides: Partial<PimClientOptions> = {},
  serverOptions: Partial<FixtureServerOptions> = {},
): Promise<PimHarness> {
  const server = await startFixtureServer({ ...CREDENTIALS, ...serverOptions });
  // Short keep-alive, as undici advises for tests, so nothing outlives the test.
  const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
  const { logger, text } = createMemoryLogger();
  const client = createPimClient({
    ...DEFAULT_PIM_CLIENT_LIMITS,
    baseUrl: server.baseUrl,
    credentials: CREDENTIALS,
    dispatcher,
    logger,
    retry: TEST_RETRY,
    random: () => 0.5,
    ...overrides,
  });
  return {
    server,
    client,
    logs: text,
    async close() {
      await dispatcher.destroy();
      await server.close();
    },
  };
}

export async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const all: T[][] = [];
  for await (const page of pages) all.push(page);
  return all;
}
