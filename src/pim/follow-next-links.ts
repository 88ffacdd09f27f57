import type { Logger } from "pino";
import type { z } from "zod";
import { requestUrl, type HttpClient } from "../http/http-client.js";
import { createPagingGuard } from "../http/paging-guard.js";

/** The part of both Akeneo envelopes (page and search_after) that paging needs. */
export interface LinkedPage<I> {
  readonly _links?:
    | { readonly self?: { readonly href: string } | undefined; readonly next?: { readonly href: string } | undefined }
    | undefined;
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
export async function* followNextLinks<I extends CodedItem>(args: {
  readonly http: HttpClient;
  readonly first: FirstPage;
  readonly schema: z.ZodType<LinkedPage<I>>;
  readonly logger: Logger;
  readonly signal?: AbortSignal | undefined;
}): AsyncGenerator<readonly I[], void, undefined> {
  const guard = createPagingGuard({
    upstream: "pim",
    list: args.first.url,
    baseUrl: args.http.baseUrl,
    firstUrl: requestUrl(args.http.baseUrl, args.first.url, args.first.query).toString(),
    logger: args.logger,
  });
  let expectedCount: number | undefined;
  let url = args.first.url;
  let query = args.first.query;
  for (let pageNumber = 1; ; pageNumber += 1) {
    const { data } = await args.http.send({ method: "GET", url, query, schema: args.schema, signal: args.signal });
    // The count of the first page: a list that changes while it is read fails the check below.
    if (pageNumber === 1) expectedCount = data.items_count;
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
    query = undefined;
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
