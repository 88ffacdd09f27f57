import type { Logger } from "pino";
import { SELECT_ATTRIBUTE_TYPES, type PimAttribute, type PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import type { HttpClient } from "../../infra/http/http-client.js";
import { targetedAttributes, type SyncTargets } from "../../core/domain/sync-targets.js";
import { chunksOf } from "./chunks-of.js";
import { collectPages } from "./follow-next-links.js";
import { toPimAttribute, toPimChannel, toPimCurrency, toPimLocale, toPimMeasurementFamily } from "./map-pim-catalog.js";
import { attributeSchema, channelSchema, currencySchema, localeSchema, measurementFamiliesSchema, pageSchema } from "./pim-schemas.js";
import { PAGE_LIMIT } from "./read-pim-structure.js";

const attributePage = pageSchema(attributeSchema);
const channelPage = pageSchema(channelSchema);
const localePage = pageSchema(localeSchema);
const currencyPage = pageSchema(currencySchema);

const REFERENCE_ENTITY_TYPES: readonly string[] = [
  SELECT_ATTRIBUTE_TYPES.referenceEntity,
  SELECT_ATTRIBUTE_TYPES.referenceEntityCollection,
];

/**
 * The part of the catalogue structure a targeted sync needs: the named attributes and those of
 * named options (a `code IN` search, a page per 100 codes), the attributes linking to a named reference entity (only when
 * one is named), and the small lists the project's scope is made of (channels, locales,
 * currencies, measurement families). Not the families: they only group select fields, which a
 * sync does not write. An attribute the PIM no longer has is simply absent, as in a full read.
 */
export async function readTargetStructure(
  deps: { readonly http: HttpClient; readonly logger: Logger },
  targets: SyncTargets,
  signal?: AbortSignal,
): Promise<PimCatalogStructure> {
  const { http, logger } = deps;
  const list = { http, logger, signal };
  const searchAttributes = (search: object): Promise<PimAttribute[]> =>
    collectPages({
      ...list,
      first: { url: "attributes", query: { search: JSON.stringify(search), limit: PAGE_LIMIT } },
      schema: attributePage,
      map: toPimAttribute,
    });
  const [named, linking, channels, locales, currencies, measurementFamilies] = await Promise.all([
    Promise.all(
      chunksOf(targetedAttributes(targets), PAGE_LIMIT).map((codes) => searchAttributes({ code: [{ operator: "IN", value: codes }] })),
    ).then((pages) => pages.flat()),
    targets.referenceEntities.length === 0
      ? Promise.resolve([])
      : searchAttributes({ type: [{ operator: "IN", value: REFERENCE_ENTITY_TYPES }] }),
    collectPages({ ...list, first: { url: "channels", query: { limit: PAGE_LIMIT } }, schema: channelPage, map: toPimChannel }),
    collectPages({ ...list, first: { url: "locales", query: { limit: PAGE_LIMIT } }, schema: localePage, map: toPimLocale }),
    collectPages({ ...list, first: { url: "currencies", query: { limit: PAGE_LIMIT } }, schema: currencyPage, map: toPimCurrency }),
    http
      .send({ method: "GET", url: "measurement-families", schema: measurementFamiliesSchema, signal })
      .then(({ data }) => data.map(toPimMeasurementFamily)),
  ]);
  const byCode = new Map<string, PimAttribute>();
  for (const attribute of [...named, ...linking])
    if (!byCode.has(attribute.code.toLowerCase())) byCode.set(attribute.code.toLowerCase(), attribute);
  return { attributes: [...byCode.values()], channels, locales, currencies, families: [], measurementFamilies };
}
