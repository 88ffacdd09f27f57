/**
 * Catalogue settings: channels, locales, currencies, families (page pagination, sorted by code,
 * plus GET by code) and measurement families (a plain JSON array, not paginated; reference §6).
 */
import { jsonReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import { akeneoError } from "../akeneo-errors.js";
import { pageReply, readPageParams } from "../page-pagination.js";
import { API_PREFIX } from "../pim-route.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import type { ResourceForms } from "../resource-forms.js";
import { byCode } from "../pim-state.js";
import { applySearch, equalsBooleanFilter } from "../search-filters.js";
import type { SupportedFilters } from "../search-filters.js";

interface CodeListSpec<T extends { readonly code: string }> {
  /** Path below the API prefix, e.g. `/channels`. */
  readonly path: string;
  /** Read at request time: tests change the live state between requests. */
  items(): readonly T[];
  readonly filters?: SupportedFilters<T>;
  /** The item's wire form, without `_links`. */
  present(item: T): object;
}

/** A page-paginated list with a GET by code, the shape all four of these resources share. */
function addCodeList<T extends { readonly code: string }>(router: PimRouter, forms: ResourceForms, spec: CodeListSpec<T>): void {
  router.add("GET", `${API_PREFIX}${spec.path}`, {
    handle(request) {
      const paging = readPageParams(request.query);
      if (!paging.ok) return paging.reply;
      const filtered = applySearch(request.query.get("search"), spec.items(), spec.filters ?? {});
      if (!filtered.ok) return filtered.reply;
      return pageReply(
        request,
        byCode(filtered.items),
        paging.params,
        (item) => forms.listItem(`${request.origin}${API_PREFIX}${spec.path}/${encodeURIComponent(item.code)}`, spec.present(item)),
        { currentPage: forms.currentPage },
      );
    },
  });
  router.add("GET", `${API_PREFIX}${spec.path}/:code`, {
    handle(_request, params) {
      const code = paramOf(params, "code");
      const item = spec.items().find((candidate) => candidate.code === code);
      if (item === undefined) return akeneoError(404, `Resource \`${code}\` does not exist.`);
      return jsonReply(200, spec.present(item));
    },
  });
}

export function addStructureRoutes(router: PimRouter, { state, forms }: PimRouteContext): void {
  addCodeList(router, forms, { path: "/channels", items: () => state.channels, present: forms.channel });
  // Locales support only `enabled =`; currencies support it on SaaS (reference §6).
  addCodeList(router, forms, {
    path: "/locales",
    items: () => state.locales,
    present: forms.locale,
    filters: { enabled: { "=": equalsBooleanFilter((locale) => locale.enabled) } },
  });
  addCodeList(router, forms, {
    path: "/currencies",
    items: () => state.currencies,
    present: forms.currency,
    filters: { enabled: { "=": equalsBooleanFilter((currency) => currency.enabled) } },
  });
  addCodeList(router, forms, { path: "/families", items: () => state.families, present: forms.family });

  router.add("GET", `${API_PREFIX}/measurement-families`, {
    handle: () => jsonReply(200, state.measurement_families.map(forms.measurementFamily)),
  });
}
