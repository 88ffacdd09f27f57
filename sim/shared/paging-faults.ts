/**
 * Injected paging faults, shared by both simulators: lists whose pages misbehave the way real
 * servers and proxies make them misbehave. Unlike `fault-injector.ts` (which answers instead of
 * the simulator), a paging fault edits a list page the simulator did answer (200, JSON with a
 * `next` link: Akeneo's `_links.next.href` or DRF's `next`), so the client sees a well-formed page
 * that lies about what follows.
 */
import type { FaultMatch } from "./fault-injector.js";
import { matchesFault } from "./fault-injector.js";
import type { SimReply, SimRequest } from "./sim-request.js";

export type PagingFault =
  /** `next` points back at the first page of the list already answered. */
  | { readonly kind: "loop" }
  /** `next` is the page just answered (the same `page` number, the same search_after cursor). */
  | { readonly kind: "repeat-cursor" }
  /** The page carries the items of the page answered before it; its `next` link is left as it is. */
  | { readonly kind: "repeat-items" }
  /** No `next` link, although more items follow: the list ends early. */
  | { readonly kind: "truncate" }
  /** `next` keeps its path and query but names another origin (scheme, host or port). */
  | { readonly kind: "other-origin"; readonly origin: string };

export interface PagingFaultSpec {
  readonly fault: PagingFault;
  /**
   * Which list page gets the fault, counting the matching list pages answered since the fault
   * was armed (or last fired), from 1. 2 when left out: the first page is answered as it is.
   */
  readonly atPage?: number;
  /** How many times the fault fires; 1 when left out. The page count restarts after each. */
  readonly times?: number;
}

export interface PagingFaults {
  arm(match: FaultMatch, spec: PagingFaultSpec): void;
  clear(): void;
  /** Faults still armed (sum of remaining times). */
  pending(): number;
  /** How many pages were edited so far (the count survives `clear()`). */
  fired(): number;
  /** Used by the simulator: the reply as sent, edited when an armed fault fires on it. */
  apply(request: SimRequest, reply: SimReply): { readonly reply: SimReply; readonly fired: boolean };
}

interface Entry {
  readonly match: FaultMatch;
  readonly fault: PagingFault;
  readonly atPage: number;
  remaining: number;
  pagesSeen: number;
  firstPageUrl: string | undefined;
  previousItems: unknown[] | undefined;
}

export function createPagingFaults(): PagingFaults {
  let entries: Entry[] = [];
  let fired = 0;
  return {
    arm(match, spec) {
      const times = spec.times ?? 1;
      const atPage = spec.atPage ?? 2;
      if (!Number.isInteger(times) || times < 1) throw new RangeError(`paging fault times must be a positive integer, got ${times}`);
      if (!Number.isInteger(atPage) || atPage < 1) throw new RangeError(`paging fault atPage must be a positive integer, got ${atPage}`);
      if (spec.fault.kind === "other-origin") new URL(spec.fault.origin); // fails now on a bad origin, not mid-run
      entries.push({ match, fault: spec.fault, atPage, remaining: times, pagesSeen: 0, firstPageUrl: undefined, previousItems: undefined });
    },
    clear() {
      entries = [];
    },
    pending() {
      return entries.reduce((sum, entry) => sum + entry.remaining, 0);
    },
    fired: () => fired,
    apply(request, reply) {
      if (reply.kind !== "reply" || reply.status !== 200) return { reply, fired: false };
      const entry = entries.find((candidate) => matchesFault(candidate.match, request.method, request.path, request.query));
      if (entry === undefined) return { reply, fired: false };
      const page = readListPage(reply.body);
      if (page === undefined) return { reply, fired: false };
      const url = pageUrlOf(request);
      entry.pagesSeen += 1;
      if (entry.pagesSeen === 1) entry.firstPageUrl = url;
      const previousItems = entry.previousItems;
      entry.previousItems = page.items();
      if (entry.pagesSeen < entry.atPage) return { reply, fired: false };

      const edited = editPage(page, entry, url, previousItems);
      if (!edited) return { reply, fired: false };
      fired += 1;
      entry.remaining -= 1;
      entry.pagesSeen = 0;
      entry.firstPageUrl = undefined;
      entry.previousItems = undefined;
      if (entry.remaining === 0) entries = entries.filter((candidate) => candidate !== entry);
      return { reply: { ...reply, body: JSON.stringify(page.body) }, fired: true };
    },
  };
}

/** Returns false when the fault cannot apply to this page (nothing changed then). */
function editPage(page: ListPage, entry: Entry, url: string, previousItems: unknown[] | undefined): boolean {
  const fault = entry.fault;
  switch (fault.kind) {
    case "loop":
      if (entry.firstPageUrl === undefined) return false;
      page.setNext(entry.firstPageUrl);
      return true;
    case "repeat-cursor":
      page.setNext(url);
      return true;
    case "repeat-items":
      if (previousItems === undefined) return false;
      page.setItems(previousItems);
      return true;
    case "truncate":
      if (page.next() === undefined) return false;
      page.setNext(undefined);
      return true;
    case "other-origin": {
      const next = page.next();
      if (next === undefined) return false;
      const moved = new URL(next);
      const origin = new URL(fault.origin);
      moved.protocol = origin.protocol;
      moved.host = origin.host;
      page.setNext(moved.toString());
      return true;
    }
  }
}

/** The URL this page was asked for, as a `next` link to it would spell it. */
function pageUrlOf(request: SimRequest): string {
  const query = request.query.toString();
  return `${request.origin}${request.path}${query === "" ? "" : `?${query}`}`;
}

interface ListPage {
  readonly body: Record<string, unknown>;
  items(): unknown[];
  setItems(items: unknown[]): void;
  next(): string | undefined;
  setNext(href: string | undefined): void;
}

/** Akeneo's `{_links, _embedded: {items}}` or DRF's `{count, next, previous, results}`; else undefined. */
function readListPage(text: string): ListPage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const body = parsed;
  const embedded = body["_embedded"];
  if (isRecord(embedded) && Array.isArray(embedded["items"])) {
    const links = isRecord(body["_links"]) ? body["_links"] : {};
    body["_links"] = links;
    return {
      body,
      items: () => (Array.isArray(embedded["items"]) ? [...(embedded["items"] as unknown[])] : []),
      setItems: (items) => void (embedded["items"] = items),
      next() {
        const next = links["next"];
        return isRecord(next) && typeof next["href"] === "string" ? next["href"] : undefined;
      },
      setNext(href) {
        if (href === undefined) delete links["next"];
        else links["next"] = { href };
      },
    };
  }
  if (Array.isArray(body["results"]) && "next" in body) {
    return {
      body,
      items: () => (Array.isArray(body["results"]) ? [...(body["results"] as unknown[])] : []),
      setItems: (items) => void (body["results"] = items),
      next: () => (typeof body["next"] === "string" ? body["next"] : undefined),
      setNext: (href) => void (body["next"] = href ?? null),
    };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
