/**
 * The "page" pagination of Akeneo lists (reference §2): `page`, `limit` (default 10, max 100),
 * `with_count`; links repeat page, limit and with_count (and the search); `next` is absent on the
 * last page and a page past the end is an empty 200, not an error.
 */
import { jsonReply } from "../shared/replies.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";

import { akeneoError } from "./akeneo-errors.js";

export interface PageParams {
  readonly page: number;
  readonly limit: number;
  /** As sent ("true"/"false"), so links can repeat it; undefined when not sent. */
  readonly withCount: "true" | "false" | undefined;
}

export type PageParamsResult = { readonly ok: true; readonly params: PageParams } | { readonly ok: false; readonly reply: SimReply };

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

/** Messages as the PIM's pagination parameter validator words them. */
export function readPageParams(query: URLSearchParams): PageParamsResult {
  const rawPage = query.get("page");
  const rawLimit = query.get("limit");
  const rawWithCount = query.get("with_count");
  const page = rawPage === null ? 1 : positiveInteger(rawPage);
  if (page === undefined) return { ok: false, reply: akeneoError(422, `"${rawPage}" is not a valid page number.`) };
  const limit = rawLimit === null ? DEFAULT_LIMIT : positiveInteger(rawLimit);
  if (limit === undefined) return { ok: false, reply: akeneoError(422, `"${rawLimit}" is not a valid limit number.`) };
  if (limit > MAX_LIMIT) return { ok: false, reply: akeneoError(422, `You cannot request more than ${MAX_LIMIT} items.`) };
  if (rawWithCount !== null && rawWithCount !== "true" && rawWithCount !== "false") {
    return {
      ok: false,
      reply: akeneoError(422, `Parameter "with_count" has to be a boolean. Only "true" or "false" allowed, "${rawWithCount}" given.`),
    };
  }
  return { ok: true, params: { page, limit, withCount: rawWithCount ?? undefined } };
}

function positiveInteger(raw: string): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/**
 * One page of `all` (already filtered and sorted). `present` turns an item into its wire form,
 * `_links.self` included; `carried` names request parameters the links repeat after the paging
 * ones; `currentPage` false leaves `current_page` out (optional in the description).
 */
export function pageReply<T>(
  request: SimRequest,
  all: readonly T[],
  params: PageParams,
  present: (item: T) => object,
  { carried = ["search"], currentPage = true }: { readonly carried?: readonly string[]; readonly currentPage?: boolean } = {},
): SimReply {
  const href = (page: number): string => {
    const query = new URLSearchParams({ page: String(page), limit: String(params.limit) });
    if (params.withCount !== undefined) query.set("with_count", params.withCount);
    for (const name of carried) {
      const value = request.query.get(name);
      if (value !== null) query.set(name, value);
    }
    return `${request.origin}${request.path}?${query.toString()}`;
  };
  const start = (params.page - 1) * params.limit;
  const items = all.slice(start, start + params.limit).map(present);
  const links: Record<string, { href: string }> = { self: { href: href(params.page) }, first: { href: href(1) } };
  if (params.page > 1) links["previous"] = { href: href(params.page - 1) };
  if (start + params.limit < all.length) links["next"] = { href: href(params.page + 1) };
  return jsonReply(200, {
    _links: links,
    ...(currentPage ? { current_page: params.page } : {}),
    ...(params.withCount === "true" ? { items_count: all.length } : {}),
    _embedded: { items },
  });
}
