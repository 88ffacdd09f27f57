/**
 * Reference entities and their records (reference §7), both search_after paginated. Records take
 * `locales=en_US,fr_FR`, which keeps only values in those locales plus non-localizable ones.
 */
import { jsonReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import type { SimRequest } from "../../shared/sim-request.js";
import type { PimCatalogRecord } from "../../catalog/pim-catalog-schema.js";
import { akeneoError } from "../akeneo-errors.js";
import { API_PREFIX } from "../pim-route.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import { byCode, byCodeCached, localeStatus, sameCode } from "../pim-state.js";
import type { PimState } from "../pim-state.js";
import { searchAfterReply } from "../search-after-pagination.js";

/** The entity page size is the server's choice and undocumented; it reuses the records one. */
export function addReferenceEntityRoutes(router: PimRouter, { state, recordsPageSize, forms }: PimRouteContext): void {
  const entityHref = (request: SimRequest, code: string): string =>
    `${request.origin}${API_PREFIX}/reference-entities/${encodeURIComponent(code)}`;

  router.add("GET", `${API_PREFIX}/reference-entities`, {
    handle: (request) =>
      searchAfterReply(request, byCode(state.reference_entities), recordsPageSize, (entity) =>
        forms.listItem(entityHref(request, entity.code), forms.referenceEntity(entity)),
      ),
  });

  router.add("GET", `${API_PREFIX}/reference-entities/:code`, {
    handle(request, params) {
      const code = paramOf(params, "code");
      const entity = state.reference_entities.find((candidate) => candidate.code === code);
      if (entity === undefined) return akeneoError(404, `Reference entity "${code}" does not exist.`);
      // A single entity has `_links` only for its image (reference_entity_get_response.json), and
      // only in full answers: the description makes them optional.
      const imageHref = `${request.origin}${API_PREFIX}/reference-entities-media-files/${entity.image ?? ""}`;
      const links = entity.image === null || forms.shape === "sparse" ? {} : { _links: { image_download: { href: imageHref } } };
      return jsonReply(200, { ...links, ...forms.referenceEntity(entity) });
    },
  });

  router.add("GET", `${API_PREFIX}/reference-entities/:code/records`, {
    handle(request, params) {
      const code = paramOf(params, "code");
      if (!state.reference_entities.some((entity) => entity.code === code)) {
        return akeneoError(404, `Reference entity "${code}" does not exist.`);
      }
      const locales = readLocales(state, request.query.get("locales"));
      if (typeof locales === "string") return akeneoError(422, locales);
      const recordHref = (record: PimCatalogRecord): string => `${entityHref(request, code)}/records/${encodeURIComponent(record.code)}`;
      return searchAfterReply(
        request,
        byCodeCached(state.reference_entity_records[code] ?? []),
        recordsPageSize,
        (record) => forms.listItem(recordHref(record), forms.record(filterValues(record, locales))),
        ["locales"],
      );
    },
  });

  router.add("GET", `${API_PREFIX}/reference-entities/:code/records/:record`, {
    handle(_request, params) {
      const code = paramOf(params, "code");
      if (!state.reference_entities.some((entity) => entity.code === code)) {
        return akeneoError(404, `Reference entity "${code}" does not exist.`);
      }
      const recordCode = paramOf(params, "record");
      const record = (state.reference_entity_records[code] ?? []).find((candidate) => sameCode(candidate.code, recordCode));
      if (record === undefined) return akeneoError(404, `Record "${recordCode}" does not exist.`);
      return jsonReply(200, forms.record(record));
    },
  });
}

/** The `locales` filter, or an error message for a locale the PIM does not have activated. */
function readLocales(state: PimState, raw: string | null): ReadonlySet<string> | undefined | string {
  if (raw === null) return undefined;
  const codes = raw
    .split(",")
    .map((code) => code.trim())
    .filter((code) => code !== "");
  const inactive = codes.find((code) => localeStatus(state, code) !== "enabled");
  if (inactive !== undefined) return `Locale "${inactive}" does not exist or is not activated.`;
  return new Set(codes);
}

function filterValues(record: PimCatalogRecord, locales: ReadonlySet<string> | undefined): PimCatalogRecord {
  if (locales === undefined) return record;
  const values: PimCatalogRecord["values"] = {};
  for (const [attribute, entries] of Object.entries(record.values)) {
    const kept = entries.filter((entry) => entry.locale === null || locales.has(entry.locale));
    if (kept.length > 0) values[attribute] = kept;
  }
  return { ...record, values };
}
