import type { Logger } from "pino";
import type { z } from "zod";
import type { HttpClient } from "../http/http-client.js";

/** The part of both Akeneo envelopes (page and search_after) that paging needs. */
export interface LinkedPage<I> {
  readonly _links?:
    | { readonly self?: { readonly href: string } | undefined; readonly next?: { readonly href: string } | undefined }
    | undefined;
  readonly _embedded: { readonly items: readonly I[] };
}

export interface FirstPage {
  /** Relative to the client's base URL. */
  readonly url: string;
  readonly query?: Readonly<Record<string, string | number>>;
}

/**
 * Reads a list page by page. Both pagination methods are driven by `_links.next.href` alone: the
 * docs say never to build `page` or `search_after` yourself, and the href is absolute, so it is
 * sent as it is. A page is yielded as soon as it is read, so callers stream instead of holding
 * the whole list.
 *
 * A next link that points back at a page already read is a loop, not more data (the published
 * locales example has `next` equal to `self`): reading stops there instead of spinning forever.
 */
export async function* followNextLinks<I>(args: {
  readonly http: HttpClient;
  readonly first: FirstPage;
  readonly schema: z.ZodType<LinkedPage<I>>;
  readonly logger: Logger;
  readonly signal?: AbortSignal | undefined;
}): AsyncGenerator<readonly I[], void, undefined> {
  const seen = new Set<string>();
  let url = args.first.url;
  let query = args.first.query;
  for (;;) {
    const { data } = await args.http.send({ method: "GET", url, query, schema: args.schema, signal: args.signal });
    yield data._embedded.items;
    const self = data._links?.self?.href;
    if (self !== undefined) seen.add(self);
    const next = data._links?.next?.href;
    if (next === undefined) return;
    if (seen.has(next)) {
      args.logger.warn({ next }, "next link points back to a page already read; stopping there");
      return;
    }
    seen.add(next);
    url = next;
    query = undefined;
  }
}

/** Reads every page of a small list (structure: attributes, channels...) and maps each item. */
export async function collectPages<I, T>(
  args: Parameters<typeof followNextLinks<I>>[0] & { readonly map: (item: I) => T },
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of followNextLinks(args)) {
    for (const item of page) all.push(args.map(item));
  }
  return all;
}
