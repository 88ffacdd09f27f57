/** The PIM's page size for option lists (read-pim-structure.ts). */
const OPTIONS_PER_PAGE = 100;

/**
 * How to learn which of `names` an attribute has: reading its whole option list costs one request
 * per page, GETting the names one each; the cheaper wins (a tie reads the list: one answer for
 * every name, taken at one moment). Pure.
 */
export function planPimCheck(names: number, optionCount: number): "list" | "get" {
  const pages = Math.max(1, Math.ceil(optionCount / OPTIONS_PER_PAGE));
  return pages <= names ? "list" : "get";
}
