import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Agent } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEventPlatformClient, type EventPlatformClient } from "../../../../src/upstreams/event-platform/event-platform-client.js";
import { HttpError } from "../../../../src/infra/http/http-error.js";

const TOKEN = "pim-access-token-5a1f0c9e77";
const PRIMARY = "primary-subscription-secret-8c1d";
const SECONDARY = "secondary-subscription-secret-2e7b";
const CLIENT_ID = "connection-client-id-41";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

type Reply = { readonly status: number; readonly body: string; readonly headers?: Record<string, string> };

let server: Server;
let origin: string;
let agent: Agent;
let seen: Seen[] = [];
let replies: Reply[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const reply = replies.shift() ?? { status: 500, body: "no reply scripted" };
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new Agent({ connections: 2 });
});

afterAll(async () => {
  await agent.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  replies = [];
});

function client(): EventPlatformClient {
  return createEventPlatformClient({
    baseUrl: `${origin}/api/v1`,
    pimUrl: "https://pim.example.com",
    clientId: CLIENT_ID,
    pimToken: TOKEN,
    dispatcher: agent,
    logger: pino({ level: "silent" }),
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 2_000 },
    timeoutMs: 5_000,
  });
}

const request = {
  subject: "https://pim.example.com",
  events: ["com.akeneo.pim.v1.attribute.created"],
  url: "https://sync.example.com/v1/pim-events/67",
  secret: { primary: PRIMARY, secondary: SECONDARY },
};

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

describe("event platform client", () => {
  it("sends the published headers and bodies, and reads the subscriber's id", async () => {
    replies = [
      {
        status: 201,
        body: JSON.stringify({
          id: "sub-1",
          tenant_id: "t",
          client_id: CLIENT_ID,
          name: "n",
          subject: "https://pim.example.com",
          status: "active",
          contact: {},
          extra: 1,
        }),
      },
    ];
    const subscriber = await client().createSubscriber({ name: "pim-sync project 67", technicalEmail: "ops@example.com" });

    expect(subscriber.id).toBe("sub-1");
    const [sent] = seen;
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("/api/v1/subscriber");
    expect(sent?.headers).toMatchObject({
      "x-pim-url": "https://pim.example.com",
      "x-pim-token": TOKEN,
      "x-pim-client-id": CLIENT_ID,
      "content-type": "application/json",
    });
    expect(JSON.parse(sent?.body ?? "")).toEqual({ name: "pim-sync project 67", contact: { technical_email: "ops@example.com" } });
  });

  it("sends the subscription's published body, secondary secret only when given", async () => {
    replies = [
      { status: 201, body: JSON.stringify({ id: "s-1" }) },
      { status: 201, body: JSON.stringify({ id: "s-2" }) },
    ];
    await client().createSubscription("sub/1", request);
    await client().createSubscription("sub-1", { ...request, secret: { primary: PRIMARY } });

    expect(seen.map((sent) => sent.url)).toEqual(["/api/v1/subscriber/sub%2F1/subscription", "/api/v1/subscriber/sub-1/subscription"]);
    expect(JSON.parse(seen[0]?.body ?? "")).toEqual({
      source: "pim",
      subject: "https://pim.example.com",
      events: ["com.akeneo.pim.v1.attribute.created"],
      type: "https",
      config: { url: "https://sync.example.com/v1/pim-events/67", secret: { primary: PRIMARY, secondary: SECONDARY } },
    });
    expect(JSON.parse(seen[1]?.body ?? "")).toMatchObject({ config: { secret: { primary: PRIMARY } } });
    expect(JSON.parse(seen[1]?.body ?? "")).not.toHaveProperty("config.secret.secondary");
  });

  it("reads the subscription's answer leniently: an id (a number as its text), a status when it is a string", async () => {
    replies = [
      { status: 201, body: JSON.stringify({ id: 42, status: "pending", unread: true }) },
      { status: 200, body: JSON.stringify({ id: "s-2" }) },
      { status: 201, body: JSON.stringify({ id: "s-3", status: { phase: "x" } }) },
    ];
    expect(await client().createSubscription("sub-1", request)).toEqual({ id: "42", status: "pending" });
    expect(await client().createSubscription("sub-1", request)).toEqual({ id: "s-2", status: undefined });
    expect(await client().createSubscription("sub-1", request)).toEqual({ id: "s-3", status: undefined });
  });

  it("refuses an answer without an id, naming the field", async () => {
    replies = [
      { status: 201, body: JSON.stringify({ status: "active" }) },
      { status: 201, body: JSON.stringify({ id: "" }) },
    ];
    const noSubscriberId = await failure(client().createSubscriber({ name: "n", technicalEmail: "ops@example.com" }));
    expect(noSubscriberId.code).toBe("HTTP_RESPONSE_SHAPE");
    expect(noSubscriberId.message).toContain("id:");
    const emptySubscriptionId = await failure(client().createSubscription("sub-1", request));
    expect(emptySubscriptionId.code).toBe("HTTP_RESPONSE_SHAPE");
    expect(emptySubscriptionId.message).toContain("id:");
  });

  it("tries a 429 again after its Retry-After", async () => {
    replies = [
      { status: 429, body: "{}", headers: { "retry-after": "0" } },
      { status: 201, body: JSON.stringify({ id: "s-1" }) },
    ];
    expect((await client().createSubscription("sub-1", request)).id).toBe("s-1");
    expect(seen).toHaveLength(2);
  });

  it("does not repeat a creating POST after a 5xx, and says why", async () => {
    replies = [{ status: 503, body: JSON.stringify({ message: "down" }) }];
    const error = await failure(client().createSubscription("sub-1", request));
    expect(seen).toHaveLength(1);
    expect(error.status).toBe(503);
    expect(error.message).toContain("not tried again");
  });

  it("after its tries, a 429 says nothing was created", async () => {
    replies = [0, 1, 2].map(() => ({ status: 429, body: "{}", headers: { "retry-after": "0" } }));
    const error = await failure(client().createSubscriber({ name: "n", technicalEmail: "ops@example.com" }));
    expect(seen).toHaveLength(3);
    expect(error.status).toBe(429);
    expect(error.message).toContain("nothing was created");
    expect(error.message).not.toContain("not tried again");
  });

  it("keeps the token, the client id and the secrets out of an error that echoes the request", async () => {
    const echo = JSON.stringify({
      message: "bad",
      headers: { "x-pim-token": TOKEN, "x-pim-client-id": CLIENT_ID },
      config: { secret: { primary: PRIMARY, secondary: SECONDARY } },
    });
    replies = [{ status: 400, body: echo }];
    const error = await failure(client().createSubscription("sub-1", request));
    const shown = `${error.message}\n${error.stack ?? ""}\n${error.bodyExcerpt ?? ""}`;
    for (const secret of [TOKEN, CLIENT_ID, PRIMARY, SECONDARY]) expect(shown).not.toContain(secret);
    expect(error.message).toContain("400");
    expect(error.message).toContain("[redacted]");
  });

  it("names the credential headers of a refused token, never their values", async () => {
    replies = [{ status: 401, body: JSON.stringify({ message: `token ${TOKEN} expired` }) }];
    const error = await failure(client().createSubscriber({ name: "n", technicalEmail: "ops@example.com" }));
    expect(error.message).toContain("x-pim-token");
    expect(error.message).not.toContain(TOKEN);
    expect(error.transient).toBe(false);
  });
});
