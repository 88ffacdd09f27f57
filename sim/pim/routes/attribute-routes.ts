/** `GET /attributes` (page pagination, `search` on code and type) and `GET /attributes/{code}`. */
import { jsonReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import type { SimRequest } from "../../shared/sim-request.js";
import type { PimCatalogAttribute } from "../../catalog/pim-catalog-schema.js";
import { akeneoError } from "../akeneo-errors.js";
import { pageReply, readPageParams } from "../page-pagination.js";
import { API_PREFIX } from "../pim-route.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import { byCode, findAttribute } from "../pim-state.js";
import { applySearch, inFilter } from "../search-filters.js";

export function addAttributeRoutes(router: PimRouter, { state, forms }: PimRouteContext): void {
  const present = (request: SimRequest) => (attribute: PimCatalogAttribute) =>
    forms.listItem(`${request.origin}${API_PREFIX}/attributes/${encodeURIComponent(attribute.code)}`, forms.attribute(attribute));

  router.add("GET", `${API_PREFIX}/attributes`, {
    handle(request) {
      const paging = readPageParams(request.query);
      if (!paging.ok) return paging.reply;
      const filtered = applySearch(request.query.get("search"), state.attributes, {
        code: { IN: inFilter((attribute) => attribute.code) },
        type: { IN: inFilter((attribute) => attribute.type) },
      });
      if (!filtered.ok) return filtered.reply;
      return pageReply(request, byCode(filtered.items), paging.params, present(request), { currentPage: forms.currentPage });
    },
  });

  router.add("GET", `${API_PREFIX}/attributes/:code`, {
    handle(_request, params) {
      const code = paramOf(params, "code");
      const attribute = findAttribute(state, code);
      if (attribute === undefined) return akeneoError(404, `Resource \`${code}\` does not exist.`);
      // A single GET carries no `_links` (attribute_get_response.json).
      return jsonReply(200, forms.attribute(attribute));
    },
  });
}
