import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHttpClient, type HttpClient } from "../../../../src/infra/http/http-client.js";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { PagingError } from "../../../../src/infra/http/paging-error.js";
import { followNextLinks } from "../../../../src/upstreams/pim/follow-next-links.js";
import { pageSchema } from "../../../../src/upstreams/pim/pim-schemas.js";
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from "../../../support/scripted-http-server.js";
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

type Pages = (url: URL, origin: string) => ScriptedReply | Promise<ScriptedReply>;

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

async function readAll(server: ScriptedServer, readAhead = 1): Promise<string[]> {
  const codes: string[] = [];
  const first = { url: LIST, query: { limit: 2 } };
  for await (const items of followNextLinks({ http: clientFor(server), first, schema, logger: createMemoryLogger().logger, readAhead })) {
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
      pages: (url, origin) =>
        url.searchParams.get("page") === "2"
          ? page(origin, ["c", "d"], `${LIST}?page=2&limit=2`)
          : page(origin, ["a", "b"], `${LIST}?page=2&limit=2`),
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
      url.searchParams.get("page") === "2"
        ? page(origin, ["c"])
        : page(origin, ["a", "b"], `${elsewhere.origin}/api/rest/v1/${LIST}?page=2&limit=2`),
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

describe("reading a counted, page-numbered list ahead", () => {
  /** `count` items c0..c{count-1}, two a page, links as the PIM builds them. */
  function numbered(count: number, edit: (page: number, codes: string[]) => string[] = (_page, codes) => codes): Pages {
    return (url, origin) => {
      const at = Number(url.searchParams.get("page") ?? "1");
      const codes = edit(at, Array.from({ length: count }, (_, i) => `c${i}`).slice((at - 1) * 2, at * 2));
      const next = at * 2 < count ? `${LIST}?page=${at + 1}&limit=2&with_count=true` : undefined;
      return page(origin, codes, next, at === 1 ? { items_count: count } : {});
    };
  }

  it("requests the following pages before the first of them is answered, and yields them in order", async () => {
    let pageFourAsked: () => void = () => undefined;
    const pageFour = new Promise<void>((resolve) => (pageFourAsked = resolve));
    const inOrder = numbered(9);
    const events: string[] = [];
    const server = await serve(async (url, origin) => {
      const at = url.searchParams.get("page") ?? "1";
      events.push(`ask ${at}`);
      if (at === "4") pageFourAsked();
      // Page 2 is held back until page 4 was asked for (or a second passed, so a reader that does
      // not read ahead fails on the order below rather than hanging).
      if (at === "2") await Promise.race([pageFour, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      events.push(`answer ${at}`);
      return inOrder(url, origin);
    });

    await expect(readAll(server, 3)).resolves.toEqual(Array.from({ length: 9 }, (_, i) => `c${i}`));
    expect(events.indexOf("ask 4")).toBeLessThan(events.indexOf("answer 2"));
    expect(events.filter((event) => event.startsWith("ask"))).toHaveLength(5);
  });

  it("fails when a page holds fewer items than the count implies (the list shrank while read)", async () => {
    const server = await serve(numbered(9, (at, codes) => (at === 3 ? codes.slice(1) : codes)));
    const failure = await readAll(server, 3).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PagingError);
    expect((failure as Error).message).toMatch(/page 3 of 5 held 1 items and a next link where the count of 9 implies 2/);
  });

  it("fails when the last page still links on (the list grew while read)", async () => {
    const inOrder = numbered(9);
    const server = await serve((url, origin) => {
      const reply = inOrder(url, origin);
      if (url.searchParams.get("page") !== "5") return reply;
      return page(origin, ["c8", "c9"], `${LIST}?page=6&limit=2&with_count=true`);
    });
    await expect(readAll(server, 3)).rejects.toThrow(/page 5 of 5 held 2 items and a next link where the count of 9 implies 1/);
  });

  it("fails when a page repeats an item of another page", async () => {
    const server = await serve(numbered(8, (at, codes) => (at === 4 ? ["c0", "c7"] : codes)));
    await expect(readAll(server, 2)).rejects.toThrow(/item 'c0' was served twice/);
  });

  it("follows links one by one when the first page has no count", async () => {
    const inOrder = numbered(6);
    const server = await serve((url, origin) => {
      const reply = inOrder(url, origin) as { json: { items_count?: number } };
      delete reply.json.items_count;
      return reply;
    });
    await expect(readAll(server, 4)).resolves.toEqual(["c0", "c1", "c2", "c3", "c4", "c5"]);
  });
});
