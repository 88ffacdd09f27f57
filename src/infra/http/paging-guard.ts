import type { Logger } from "pino";
import { linkOnOrigin } from "./link-on-origin.js";
import { PagingError } from "./paging-error.js";

export interface PagingGuard {
  /** Records one page's items (by identity key); throws on an item already served. */
  page(keys: Iterable<string>, hasNext: boolean): void;
  /** The URL to request for `href` (on the configured origin); throws on a page or cursor already read. */
  next(href: string): string;
  /** Throws when the upstream counted a different number of items than were read. */
  finish(expectedCount: number | undefined): void;
}

/** Query parameters that carry an opaque position: the same value twice is a loop. */
const CURSOR_PARAMS = ["search_after"] as const;

/**
 * Checks that a paged list is read whole and once. Stopping quietly on a repeated link would
 * hand a truncated list to the planner, and everything after the repeat would be deleted; so
 * any misbehaviour fails the read instead. Also keeps every followed link on the configured
 * origin (see `linkOnOrigin`), since the client sends credentials with it.
 */
export function createPagingGuard(args: {
  readonly upstream: string;
  /** What is being read, for messages: "options of attribute color". */
  readonly list: string;
  readonly baseUrl: string;
  /** The first page's URL as requested, so a link back to it is recognised. */
  readonly firstUrl: string;
  readonly logger: Logger;
}): PagingGuard {
  const seenUrls = new Set<string>([normalised(args.firstUrl)]);
  const seenCursors = new Set<string>();
  const seenKeys = new Set<string>();
  let read = 0;
  let warnedAboutOrigin = false;
  const fail = (what: string): never => {
    throw new PagingError(args.upstream, args.list, what);
  };

  return {
    page(keys, hasNext) {
      let count = 0;
      for (const key of keys) {
        count += 1;
        if (seenKeys.has(key)) fail(`item '${key}' was served twice (after ${read + count - 1} items)`);
        seenKeys.add(key);
      }
      read += count;
      // A server that keeps linking past empty pages could be followed forever.
      if (count === 0 && hasNext) fail(`an empty page links to a next page (after ${read} items)`);
    },
    next(href) {
      const { url, rewritten } = linkOnOrigin(href, args.baseUrl);
      if (rewritten && !warnedAboutOrigin) {
        warnedAboutOrigin = true;
        args.logger.warn(
          { list: args.list, linkOrigin: new URL(href, args.baseUrl).origin },
          "a next link named another origin; followed on the configured origin",
        );
      }
      const key = normalised(url);
      if (seenUrls.has(key)) fail(`the next link repeats a page already read (after ${read} items)`);
      seenUrls.add(key);
      const query = new URL(url).searchParams;
      for (const param of CURSOR_PARAMS) {
        const cursor = query.get(param);
        if (cursor === null) continue;
        if (seenCursors.has(cursor)) fail(`the ${param} cursor repeats (after ${read} items)`);
        seenCursors.add(cursor);
      }
      return url;
    },
    finish(expectedCount) {
      if (expectedCount !== undefined && expectedCount !== read) fail(`the upstream counted ${expectedCount} items but ${read} were read`);
    },
  };
}

/** One spelling per page: query parameters in a fixed order, no fragment. */
function normalised(url: string): string {
  const parsed = new URL(url);
  parsed.hash = "";
  parsed.searchParams.sort();
  return parsed.toString();
}
