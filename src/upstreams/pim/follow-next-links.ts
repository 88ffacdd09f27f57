import type { Logger } from "pino";
import type { z } from "zod";
import { requestUrl, type HttpClient } from "../../infra/http/http-client.js";
import { PagingError } from "../../infra/http/paging-error.js";
import { createPagingGuard, type PagingGuard } from "../../infra/http/paging-guard.js";

/** The part of both Akeneo envelopes (page and search_after) that paging needs. */
export interface LinkedPage<I> {
  readonly _links?:
    { readonly self?: { readonly href: string } | undefined; readonly next?: { readonly href: string } | undefined } | undefined;
  /** Only with `with_count=true` (page pagination): the list's length when the page was served. */
  readonly items_count?: number | undefined;
  readonly _embedded: { readonly items: readonly I[] };
}

/** Every Akeneo list item has a code, its identity: an item served twice means the paging went wrong. */
export interface CodedItem {
  readonly code: string;
}

export interface FirstPage {
  /** Relative to the client's base URL. */
  readonly url: string;
  readonly query?: Readonly<Record<string, string | number>>;
}

/**
 * Reads a list page by page. Both pagination methods are driven by `_links.next.href` alone: the
 * docs say never to build `page` or `search_after` yourself. The href is followed on the
 * configured origin only (credentials go with it), and a list whose paging misbehaves (a link or
 * cursor that repeats, an item served twice, an empty page that links on, a count that does not
 * match) fails with a PagingError instead of ending early: a truncated list would be planned as
 * deletions. A page is yielded as soon as it is read, so callers stream instead of holding the
 * whole list; the error may come after some pages were yielded, so callers must not act on
 * pages before the iteration has ended.
 */
/** A list whose first page has been read: its count (when the upstream served one) and every page. */
export interface OpenedList<I> {
  /** `items_count` of the first page, with `with_count=true`; undefined otherwise. */
  readonly count: number | undefined;
  /** The first page, then the rest; iterate once. */
  readonly pages: AsyncIterable<readonly I[]>;
}

interface PagedListArgs<I extends CodedItem> {
  readonly http: HttpClient;
  readonly first: FirstPage;
  readonly schema: z.ZodType<LinkedPage<I>>;
  readonly logger: Logger;
  readonly signal?: AbortSignal | undefined;
  /**
   * Pages requested ahead of the one being read, for page-numbered lists whose first page
   * carries `items_count` (see `readNumberedPagesAhead`). 1 (the default) follows links one by one.
   */
  readonly readAhead?: number;
}

/**
 * Reads a list page by page. Both pagination methods are driven by `_links.next.href` alone: the
 * docs say never to build `page` or `search_after` yourself. The href is followed on the
 * configured origin only (credentials go with it), and a list whose paging misbehaves (a link or
 * cursor that repeats, an item served twice, an empty page that links on, a count that does not
 * match) fails with a PagingError instead of ending early: a truncated list would be planned as
 * deletions. A page is yielded as soon as it is read, so callers stream instead of holding the
 * whole list; the error may come after some pages were yielded, so callers must not act on
 * pages before the iteration has ended.
 */
export async function* followNextLinks<I extends CodedItem>(args: PagedListArgs<I>): AsyncGenerator<readonly I[], void, undefined> {
  yield* (await openPagedList(args)).pages;
}

/**
 * Reads the first page only, so a caller learns the list's count (with `with_count=true`) before
 * deciding when to read the rest (a sync reads its largest lists first). The rest is checked
 * against that first page's count, however long after it is read: a list that changed in
 * between fails its read, as one that changes while it is read.
 */
export async function openPagedList<I extends CodedItem>(args: PagedListArgs<I>): Promise<OpenedList<I>> {
  const guard = createPagingGuard({
    upstream: "pim",
    list: args.first.url,
    baseUrl: args.http.baseUrl,
    firstUrl: requestUrl(args.http.baseUrl, args.first.url, args.first.query).toString(),
    logger: args.logger,
  });
  const { data } = await args.http.send({
    method: "GET",
    url: args.first.url,
    query: args.first.query,
    schema: args.schema,
    signal: args.signal,
  });
  return { count: data.items_count, pages: pagesFrom(args, guard, data) };
}

async function* pagesFrom<I extends CodedItem>(
  args: PagedListArgs<I>,
  guard: PagingGuard,
  firstPage: LinkedPage<I>,
): AsyncGenerator<readonly I[], void, undefined> {
  // The count of the first page: a list that changes while it is read fails the check below.
  const expectedCount = firstPage.items_count;
  let data = firstPage;
  let url = args.first.url;
  for (let pageNumber = 1; ; pageNumber += 1) {
    if (pageNumber > 1) {
      ({ data } = await args.http.send({ method: "GET", url, schema: args.schema, signal: args.signal }));
    }
    const next = data._links?.next?.href;
    guard.page(
      data._embedded.items.map((item) => item.code),
      next !== undefined,
    );
    yield data._embedded.items;
    if (next === undefined) {
      guard.finish(expectedCount);
      return;
    }
    url = guard.next(next);
    const plan = pageNumber === 1 ? numberedPagePlan(url, expectedCount, data._embedded.items.length, args.readAhead ?? 1) : undefined;
    if (plan !== undefined) {
      yield* readNumberedPagesAhead({ ...args, guard, plan, secondPageUrl: url });
      return;
    }
  }
}

interface NumberedPagePlan {
  readonly count: number;
  readonly limit: number;
  readonly lastPage: number;
  readonly readAhead: number;
}

/**
 * When the rest of a list can be read ahead: the first page carried `items_count`, its `next`
 * link asks for page 2 with a `limit` the first page filled. Anything else is followed link by
 * link.
 */
function numberedPagePlan(
  secondPageUrl: string,
  count: number | undefined,
  firstPageItems: number,
  readAhead: number,
): NumberedPagePlan | undefined {
  if (readAhead <= 1 || count === undefined) return undefined;
  const query = new URL(secondPageUrl).searchParams;
  const limit = Number(query.get("limit"));
  if (query.get("page") !== "2" || !Number.isSafeInteger(limit) || limit < 1 || firstPageItems !== limit) return undefined;
  return { count, limit, lastPage: Math.ceil(count / limit), readAhead };
}

/**
 * Reads pages 2..last of a page-numbered list with up to `readAhead` requests out at once,
 * yielding them in order (so memory holds a few pages, whatever the list's length). A list read
 * one link after another leaves a long sequential tail on attributes with tens of thousands of
 * options; the count from the first page says how many pages there are, so the page URLs are
 * made from the `next` link by changing its `page` (the docs prefer following links, which is
 * what shorter lists and lists without a count still do). Every page must hold exactly what the
 * count implies and link on exactly when it is not the last: a list that changes while it is
 * read fails (PagingError), as in the link-by-link read.
 */
async function* readNumberedPagesAhead<I extends CodedItem>(args: {
  readonly http: HttpClient;
  readonly schema: z.ZodType<LinkedPage<I>>;
  readonly signal?: AbortSignal | undefined;
  readonly first: FirstPage;
  readonly guard: PagingGuard;
  readonly plan: NumberedPagePlan;
  readonly secondPageUrl: string;
}): AsyncGenerator<readonly I[], void, undefined> {
  const { guard, plan } = args;
  const stop = new AbortController();
  const signal = args.signal ? AbortSignal.any([args.signal, stop.signal]) : stop.signal;
  const urlOf = (page: number): string => {
    if (page === 2) return args.secondPageUrl;
    const url = new URL(args.secondPageUrl);
    url.searchParams.set("page", String(page));
    return guard.next(url.toString());
  };
  const pending: Promise<LinkedPage<I>>[] = [];
  let requested = 1;
  const requestNext = (): void => {
    requested += 1;
    const read = args.http.send({ method: "GET", url: urlOf(requested), schema: args.schema, signal }).then(({ data }) => data);
    // Awaited in order below; a failure of a page further on must not surface as unhandled.
    read.catch(() => undefined);
    pending.push(read);
  };
  try {
    for (let page = 2; page <= plan.lastPage; page += 1) {
      while (requested < plan.lastPage && pending.length < plan.readAhead) requestNext();
      const data = await pending.shift();
      if (data === undefined) throw new PagingError("pim", args.first.url, `page ${page} was never requested`);
      const items = data._embedded.items;
      const hasNext = data._links?.next?.href !== undefined;
      const expected = Math.min(plan.limit, plan.count - (page - 1) * plan.limit);
      if (items.length !== expected || hasNext !== page < plan.lastPage) {
        throw new PagingError(
          "pim",
          args.first.url,
          `page ${page} of ${plan.lastPage} held ${items.length} items${hasNext ? " and a next link" : ""} where the count of ${plan.count} implies ${expected}`,
        );
      }
      guard.page(
        items.map((item) => item.code),
        hasNext,
      );
      yield items;
    }
    guard.finish(plan.count);
  } finally {
    // Pages still out when the reader stops (a failure, or a caller that stopped early).
    stop.abort();
  }
}

/** Reads every page of a small list (structure: attributes, channels...) and maps each item. */
export async function collectPages<I extends CodedItem, T>(
  args: Parameters<typeof followNextLinks<I>>[0] & { readonly map: (item: I) => T },
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of followNextLinks(args)) {
    for (const item of page) all.push(args.map(item));
  }
  return all;
}
