import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createConfigServiceClient } from "../../../../src/upstreams/config-service/config-service-client.js";
import { DEFAULT_SERVICE_CLIENT_LIMITS } from "../../../support/default-settings.js";
import { waitFor } from "../../../support/wait-for.js";
import { silentLogger } from "../../../support/silent-logger.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A service that holds every write until the test answers it, counting how many it held at once. */
async function startHoldingService() {
  const held: ServerResponse[] = [];
  let mostHeld = 0;
  const server = createServer((request, response) => {
    request.resume();
    held.push(response);
    mostHeld = Math.max(mostHeld, held.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    mostHeld: () => mostHeld,
    /** Answers every held write; how many that was. */
    answerAll(): number {
      const answering = held.splice(0);
      for (const response of answering) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ id: 5 }));
      }
      return answering.length;
    },
  };
}

describe("config-service client: `service.max_in_flight` bounds its calls in flight", () => {
  it("never has more calls out at once than the setting allows", async () => {
    const service = await startHoldingService();
    const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
    closers.push(() => dispatcher.close());
    const client = createConfigServiceClient({
      ...DEFAULT_SERVICE_CLIENT_LIMITS,
      maxInFlight: 2,
      baseUrl: service.url,
      credentials: { token: "a-service-token" },
      dispatcher,
      logger: silentLogger(),
    });
    const calls = 6;
    const writes = Promise.all(Array.from({ length: calls }, (_, i) => client.addOptions(5, [{ name: `o${i}`, label: {} }])));
    // Two at a time reach the service: each pair is answered once both are held.
    for (let answered = 0; answered < calls;) {
      const pair = Math.min(2, calls - answered);
      await waitFor(() => service.held() >= pair, { timeoutMs: 20_000, what: "two held writes" });
      answered += service.answerAll();
    }
    await writes;
    expect(service.mostHeld()).toBe(2);
  });
});
