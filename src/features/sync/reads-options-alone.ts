import { PAGE_LIMIT } from "../../upstreams/pim/read-pim-structure.js";

/**
 * Whether a targeted sync reads an attribute's named options one by one rather than its whole
 * list, whichever costs fewer PIM requests: one per named option, against the list's pages,
 * estimated from the largest last-written state of the attribute's collections (what pim-sync
 * last wrote is the list as it was; at least one page, even for an empty one). A tie reads the
 * list: the same cost, and the list also shows changes whose events were lost. Pure.
 */
export function readsOptionsAlone(namedOptions: number, largestLastWritten: number, pageSize: number = PAGE_LIMIT): boolean {
  const pages = Math.max(1, Math.ceil(largestLastWritten / pageSize));
  return namedOptions < pages;
}
