/**
 * The search_after pagination of reference entities and records (reference §2): no `limit`, no
 * `current_page`, no `previous`; links self/first/next with an opaque cursor.
 *
 * Like the PIM's paginator, `next` is given whenever a page is full, so when the items end exactly
 * on a page boundary the client follows one more link to an empty page. Clients must handle that.
 */
import { jsonReply } from "../shared/replies.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";

/** Opaque to clients; here simply the last code seen, base64url-encoded. */
export function encodeCursor(code: string): string {
  return Buffer.from(code, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string {
  return Buffer.from(cursor, "base64url").toString("utf8");
}

/**
 * `all` must be sorted by code. `carried` names request parameters the links keep (`locales`);
 * any `limit` parameter is ignored, as the endpoints take none.
 */
export function searchAfterReply<T extends { readonly code: string }>(
  request: SimRequest,
  all: readonly T[],
  pageSize: number,
  present: (item: T) => object,
  carried: readonly string[] = [],
): SimReply {
  const href = (cursor: string | null): string => {
    const query = new URLSearchParams();
    for (const name of carried) {
      const value = request.query.get(name);
      if (value !== null) query.set(name, value);
    }
    if (cursor !== null) query.set("search_after", cursor);
    const text = query.toString();
    return `${request.origin}${request.path}${text === "" ? "" : `?${text}`}`;
  };
  const cursor = request.query.get("search_after");
  const after = cursor === null ? undefined : decodeCursor(cursor);
  const remaining = after === undefined ? all : all.filter((item) => item.code > after);
  const page = remaining.slice(0, pageSize);
  const links: Record<string, { href: string }> = { self: { href: href(cursor) }, first: { href: href(null) } };
  const last = page[page.length - 1];
  if (last !== undefined && page.length === pageSize) links["next"] = { href: href(encodeCursor(last.code)) };
  return jsonReply(200, { _links: links, _embedded: { items: page.map(present) } });
}
