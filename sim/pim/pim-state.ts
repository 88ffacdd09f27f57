/**
 * The PIM simulator's live catalogue: the parsed catalogue, cloned per simulator so tests can
 * change it between runs without touching other simulators. Queries the routes share live here.
 */
import type { SimCatalog } from "../catalog/catalog-file.js";
import type { PimCatalogAttribute, PimCatalogOption } from "../catalog/pim-catalog-schema.js";

export type PimState = SimCatalog["pim"];

/** Only these types have `/options` (reference §5; reference data and tables do not). */
export const OPTION_TYPES: readonly string[] = ["pim_catalog_simpleselect", "pim_catalog_multiselect"];

export function findAttribute(state: PimState, code: string): PimCatalogAttribute | undefined {
  return state.attributes.find((attribute) => attribute.code === code);
}

export function supportsOptions(attribute: PimCatalogAttribute): boolean {
  return OPTION_TYPES.includes(attribute.type);
}

/** The options of a select attribute, created on first use so writes can append to it. */
export function optionsOf(state: PimState, attributeCode: string): PimCatalogOption[] {
  const existing = state.attribute_options[attributeCode];
  if (existing !== undefined) return existing;
  const created: PimCatalogOption[] = [];
  state.attribute_options[attributeCode] = created;
  return created;
}

/** The PIM treats option (and record) codes case-insensitively (reference §0 "Case"). */
export function sameCode(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

export function localeStatus(state: PimState, code: string): "enabled" | "disabled" | "unknown" {
  const locale = state.locales.find((candidate) => candidate.code === code);
  if (locale === undefined) return "unknown";
  return locale.enabled ? "enabled" : "disabled";
}

/** Codes sort the way the PIM lists them: by code, byte order. */
export function byCode<T extends { readonly code: string }>(items: readonly T[]): T[] {
  return [...items].sort((left, right) => (left.code < right.code ? -1 : left.code > right.code ? 1 : 0));
}

const sortOrders = new WeakMap<readonly object[], { readonly order: readonly number[]; readonly codes: readonly string[] }>();

/**
 * `byCode` for lists served page by page: sorting a 50,000-option list for every page of 100
 * made the simulator, not the client, the bottleneck of large benchmarks. The sort order is
 * kept per list and reused while every position still holds the code it was sorted with (a
 * linear check), so in-place edits between runs are always seen.
 */
export function byCodeCached<T extends { readonly code: string }>(items: readonly T[]): T[] {
  const cached = sortOrders.get(items);
  if (cached && cached.order.length === items.length && cached.order.every((index, k) => items[index]?.code === cached.codes[k])) {
    return cached.order.map((index) => items[index] as T);
  }
  const order = items
    .map((_, index) => index)
    .sort((a, b) => {
      const left = items[a]?.code ?? "";
      const right = items[b]?.code ?? "";
      return left < right ? -1 : left > right ? 1 : 0;
    });
  sortOrders.set(items, { order, codes: order.map((index) => items[index]?.code ?? "") });
  return order.map((index) => items[index] as T);
}
