/**
 * `GET /attributes/{code}/options` (page pagination, sorted by code, not sort_order) and
 * `GET /attributes/{code}/options/{option}`, with the PIM's two 404s: unknown attribute, and an
 * attribute whose type has no options (reference §5).
 */
import { jsonReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import type { SimReply, SimRequest } from "../../shared/sim-request.js";
import type { PimCatalogAttribute } from "../../catalog/pim-catalog-schema.js";
import { akeneoError } from "../akeneo-errors.js";
import { pageReply, readPageParams } from "../page-pagination.js";
import { API_PREFIX } from "../pim-route.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import { byCodeCached, findAttribute, optionsOf, sameCode, supportsOptions } from "../pim-state.js";
import type { PimState } from "../pim-state.js";

export function optionHref(origin: string, attributeCode: string, optionCode: string): string {
  return `${origin}${API_PREFIX}/attributes/${encodeURIComponent(attributeCode)}/options/${encodeURIComponent(optionCode)}`;
}

/** The attribute behind an options URL, or the 404 the PIM gives for it. */
export function selectAttributeOr404(state: PimState, code: string): { attribute: PimCatalogAttribute } | { reply: SimReply } {
  const attribute = findAttribute(state, code);
  if (attribute === undefined) return { reply: akeneoError(404, `Attribute "${code}" does not exist.`) };
  if (!supportsOptions(attribute)) {
    return {
      reply: akeneoError(
        404,
        `Attribute "${code}" does not support options. Only attributes of type "pim_catalog_simpleselect", "pim_catalog_multiselect" support options.`,
      ),
    };
  }
  return { attribute };
}

export function addAttributeOptionReadRoutes(router: PimRouter, { state, forms }: PimRouteContext): void {
  router.add("GET", `${API_PREFIX}/attributes/:code/options`, {
    handle(request: SimRequest, params) {
      const found = selectAttributeOr404(state, paramOf(params, "code"));
      if ("reply" in found) return found.reply;
      const paging = readPageParams(request.query);
      if (!paging.ok) return paging.reply;
      const code = found.attribute.code;
      return pageReply(
        request,
        byCodeCached(optionsOf(state, code)),
        paging.params,
        (option) => forms.listItem(optionHref(request.origin, code, option.code), forms.option(code, option)),
        { currentPage: forms.currentPage },
      );
    },
  });

  router.add("GET", `${API_PREFIX}/attributes/:code/options/:option`, {
    handle(_request, params) {
      const found = selectAttributeOr404(state, paramOf(params, "code"));
      if ("reply" in found) return found.reply;
      const optionCode = paramOf(params, "option");
      const option = optionsOf(state, found.attribute.code).find((candidate) => sameCode(candidate.code, optionCode));
      if (option === undefined) {
        return akeneoError(
          404,
          `Attribute option "${optionCode}" does not exist or is not an option of the attribute "${found.attribute.code}".`,
        );
      }
      return jsonReply(200, forms.option(found.attribute.code, option));
    },
  });
}
