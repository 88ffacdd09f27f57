import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHttpClient, type HttpClient } from "../../../src/http/http-client.js";
import { HttpError } from "../../../src/http/http-error.js";
import { PagingError } from "../../../src/http/paging-error.js";
import { followNextLinks } from "../../../src/pim/follow-next-links.js";
import { pageSchema } from "../../../src/pim/pim-schemas.js";
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from "../../support/scripted-http-server.js";
import { createMemoryLogger } from "./memory-logger.js";

const TOKEN = "Bearer TOKEN-paging-7c1e";
const LIST = "attributes/color/options";
const schema = pageSchema(z.object({ code: z.string() }));

const servers: ScriptedServer[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.destroy()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Pages = (url: URL, origin: string) => ScriptedReply;

async function serve(pages: Pages): Promise<ScriptedServer> {
  const server = await startScriptedServer(pages);
  servers.push(server);
  return server;
}

function clientFor(server: ScriptedServer): HttpClient {
  const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
  agents.push(dispatcher);
  return createHttpClient({
    upstream: "pim",
    baseUrl: `${server.origin}/api/rest/v1/`,
    dispatcher,
    logger: createMemoryLogger().logger,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 10 },
    timeoutMs: 5_000,
    authorize: () => Promise.resolve(TOKEN),
  });
}

function page(origin: string, codes: readonly string[], next?: string, extra: Record<string, unknown> = {}): ScriptedReply {
  return {
    json: {
      _links: next === undefined ? {} : { next: { href: next.startsWith("http") ? next : `${origin}/api/rest/v1/${next}` } },
      ...extra,
      _embedded: { items: codes.map((code) => ({ code })) },
    },
  };
}

async function readAll(server: ScriptedServer): Promise<string[]> {
  const codes: string[] = [];
  for await (const items of followNextLinks({ http: clientFor(server), first: { url: LIST, query: { limit: 2 } }, schema, logger: createMemoryLogger().logger })) {
    codes.push(...items.map((item) => item.code));
  }
  return codes;
}

describe("paging that misbehaves fails the read instead of ending it early", () => {
  it("reads a well-behaved list whole (the control case)", async () => {
    const server = await serve((url, origin) =>
      url.searchParams.get("page") === "2" ? page(origin, ["c"]) : page(origin, ["a", "b"], `${LIST}?page=2&limit=2`, { items_count: 3 }),
    );
    await expect(readAll(server)).resolves.toEqual(["a", "b", "c"]);
  });

  const cases: { what: string; pages: Pages; reason: RegExp }[] = [
    {
      what: "a next link back to a page already read",
      pages: (url, origin) => {
        const at = url.searchParams.get("page") ?? "1";
        if (at === "1") return page(origin, ["a", "b"], `${LIST}?page=2&limit=2`);
        if (at === "2") return page(origin, ["c", "d"], `${LIST}?page=3&limit=2`);
        return page(origin, ["e", "f"], `${LIST}?limit=2&page=2`);
      },
      reason: /next link repeats a page already read \(after 6 items\)/,
    },
    {
      what: "a next link equal to the page's own link",
      pages: (url, origin) => (url.searchParams.get("page") === "2" ? page(origin, ["c", "d"], `${LIST}?page=2&limit=2`) : page(origin, ["a", "b"], `${LIST}?page=2&limit=2`)),
      reason: /next link repeats a page already read/,
    },
    {
      what: "a search_after cursor that repeats under another spelling of the link",
      pages: (url, origin) => {
        const cursor = url.searchParams.get("search_after");
        if (cursor === null) return page(origin, ["a", "b"], `${LIST}?search_after=Yg`);
        if (url.searchParams.has("again")) return page(origin, ["e"]);
        return page(origin, ["c", "d"], `${LIST}?search_after=Yg&locales=en_US`);
      },
      reason: /search_after cursor repeats/,
    },
    {
      what: "a page that repeats the items of an earlier one",
      pages: (url, origin) => {
        const at = Number(url.searchParams.get("page") ?? "1");
        return at < 3 ? page(origin, ["a", "b"], `${LIST}?page=${at + 1}&limit=2`) : page(origin, ["z"]);
      },
      reason: /item 'a' was served twice/,
    },
    {
      what: "an empty page that links to a next one",
      pages: (url, origin) => {
        const at = Number(url.searchParams.get("page") ?? "1");
        return at === 1 ? page(origin, ["a", "b"], `${LIST}?page=2&limit=2`) : page(origin, [], `${LIST}?page=${at + 1}&limit=2`);
      },
      reason: /an empty page links to a next page/,
    },
    {
      what: "a list that ends before its count (truncated)",
      pages: (url, origin) =>
        url.searchParams.get("page") === "2" ? page(origin, ["c"]) : page(origin, ["a", "b"], `${LIST}?page=2&limit=2`, { items_count: 5 }),
      reason: /counted 5 items but 3 were read/,
    },
  ];
  for (const c of cases) {
    it(c.what, async () => {
      const server = await serve(c.pages);
      const failure = await readAll(server).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PagingError);
      expect((failure as Error).message).toMatch(c.reason);
      // Bounded: the guard stops at the first misbehaving page.
      expect(server.requests.length).toBeLessThanOrEqual(3);
    });
  }
});

describe("credentials never follow a link to another origin", () => {
  it("follows a next link naming another origin on the configured one; the other origin gets nothing", async () => {
    const elsewhere = await serve((_url, origin) => page(origin, ["stolen"]));
    const server = await serve((url, origin) =>
      url.searchParams.get("page") === "2" ? page(origin, ["c"]) : page(origin, ["a", "b"], `${elsewhere.origin}/api/rest/v1/${LIST}?page=2&limit=2`),
    );

    await expect(readAll(server)).resolves.toEqual(["a", "b", "c"]);
    expect(elsewhere.requests).toEqual([]);
    expect(server.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      [`/api/rest/v1/${LIST}?limit=2`, TOKEN],
      [`/api/rest/v1/${LIST}?page=2&limit=2`, TOKEN],
    ]);
  });

  it("refuses to send a request to an absolute URL on another origin", async () => {
    const elsewhere = await serve((_url, origin) => page(origin, []));
    const server = await serve((_url, origin) => page(origin, []));
    const failure = await clientFor(server)
      .send({ method: "GET", url: `${elsewhere.origin}/api/rest/v1/attributes`, schema })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ code: "HTTP_FOREIGN_ORIGIN", transient: false });
    expect(elsewhere.requests).toEqual([]);
  });
});
