import type { Logger } from "pino";
import { ATTRIBUTE_TYPES_TO_READ, type PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import type { HttpClient } from "../../infra/http/http-client.js";
import { collectPages } from "./follow-next-links.js";
import { toPimAttribute, toPimChannel, toPimCurrency, toPimFamily, toPimLocale, toPimMeasurementFamily } from "./map-pim-catalog.js";
import {
  attributeSchema,
  channelSchema,
  currencySchema,
  familySchema,
  localeSchema,
  measurementFamiliesSchema,
  pageSchema,
} from "./pim-schemas.js";

/** The PIM's maximum page size: fewer round trips for the same list. */
export const PAGE_LIMIT = 100;

const attributePage = pageSchema(attributeSchema);
const channelPage = pageSchema(channelSchema);
const localePage = pageSchema(localeSchema);
const currencyPage = pageSchema(currencySchema);
const familyPage = pageSchema(familySchema);

/** Only the attribute types that can become select fields (or be reported as unsupported). */
export const ATTRIBUTE_TYPE_SEARCH = JSON.stringify({ type: [{ operator: "IN", value: ATTRIBUTE_TYPES_TO_READ }] });

/**
 * Reads the whole catalogue structure. The six lists are read at the same time (the client's
 * concurrency limiter keeps the PIM at its four requests in flight); each list is paged in order.
 * The first failure stops the other reads: a partial structure is useless, since a missing
 * attribute would look like a deleted one downstream.
 */
export async function readPimStructure(
  deps: { readonly http: HttpClient; readonly logger: Logger },
  signal?: AbortSignal,
): Promise<PimCatalogStructure> {
  const stopSiblings = new AbortController();
  const inner = signal ? AbortSignal.any([signal, stopSiblings.signal]) : stopSiblings.signal;
  const { http, logger } = deps;
  const failFast = <T>(read: Promise<T>): Promise<T> =>
    read.catch((error: unknown) => {
      stopSiblings.abort(error);
      throw error;
    });
  const list = { http, logger, signal: inner };

  const [attributes, channels, locales, currencies, families, measurementFamilies] = await Promise.all([
    failFast(
      collectPages({
        ...list,
        first: { url: "attributes", query: { search: ATTRIBUTE_TYPE_SEARCH, limit: PAGE_LIMIT } },
        schema: attributePage,
        map: toPimAttribute,
      }),
    ),
    failFast(collectPages({ ...list, first: { url: "channels", query: { limit: PAGE_LIMIT } }, schema: channelPage, map: toPimChannel })),
    failFast(collectPages({ ...list, first: { url: "locales", query: { limit: PAGE_LIMIT } }, schema: localePage, map: toPimLocale })),
    failFast(
      collectPages({ ...list, first: { url: "currencies", query: { limit: PAGE_LIMIT } }, schema: currencyPage, map: toPimCurrency }),
    ),
    failFast(collectPages({ ...list, first: { url: "families", query: { limit: PAGE_LIMIT } }, schema: familyPage, map: toPimFamily })),
    // Not paginated: one plain array.
    failFast(
      http
        .send({ method: "GET", url: "measurement-families", schema: measurementFamiliesSchema, signal: inner })
        .then(({ data }) => data.map(toPimMeasurementFamily)),
    ),
  ]);

  const structure = { attributes, channels, locales, currencies, families, measurementFamilies };
  logger.info(
    {
      attributes: attributes.length,
      channels: channels.length,
      locales: locales.length,
      currencies: currencies.length,
      families: families.length,
      measurementFamilies: measurementFamilies.length,
    },
    "PIM structure read",
  );
  return structure;
}
