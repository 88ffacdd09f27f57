import type { Logger } from "pino";
import { SELECT_ATTRIBUTE_TYPES, type PimAttribute, type PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import { requestUrl, type HttpClient } from "../../infra/http/http-client.js";
import { HttpError } from "../../infra/http/http-error.js";
import { targetedAttributes, type SyncTargets } from "../../core/domain/sync-targets.js";
import { chunksWithinUrl } from "./chunks-within-url.js";
import { collectPages } from "./follow-next-links.js";
import { toPimAttribute, toPimChannel, toPimCurrency, toPimLocale, toPimMeasurementFamily } from "./map-pim-catalog.js";
import { attributeSchema, channelSchema, currencySchema, localeSchema, measurementFamiliesSchema, pageSchema } from "./pim-schemas.js";
import { PIM_MAX_URL_BYTES } from "./pim-assumptions.js";
import { PAGE_LIMIT } from "./read-pim-structure.js";

const attributePage = pageSchema(attributeSchema);
const channelPage = pageSchema(channelSchema);
const localePage = pageSchema(localeSchema);
const currencyPage = pageSchema(currencySchema);

const REFERENCE_ENTITY_TYPES: readonly string[] = [
  SELECT_ATTRIBUTE_TYPES.referenceEntity,
  SELECT_ATTRIBUTE_TYPES.referenceEntityCollection,
];

const codeSearch = (codes: readonly string[]): object => ({ code: [{ operator: "IN", value: codes }] });
const searchQuery = (search: object): Record<string, string | number> => ({ search: JSON.stringify(search), limit: PAGE_LIMIT });

/** The bytes of the first page's URL of a `code IN` search of these codes, as sent. */
export function attributeSearchUrlBytes(baseUrl: string, codes: readonly string[]): number {
  return Buffer.byteLength(requestUrl(baseUrl, "attributes", searchQuery(codeSearch(codes))).href);
}

/** Refusals of the credentials, not of the request: every read meets them, none is the targets' own. */
const CREDENTIAL_REFUSALS: ReadonlySet<number> = new Set([401, 403, 407]);

/** A refusal of the request itself: a retry or another run would meet it again. */
function refusedForGood(error: unknown): error is HttpError {
  return (
    error instanceof HttpError &&
    error.code === "HTTP_STATUS" &&
    !error.transient &&
    error.status !== undefined &&
    !CREDENTIAL_REFUSALS.has(error.status)
  );
}

/**
 * The part of the catalogue structure a targeted sync needs: the named attributes and those of
 * named options (a `code IN` search, a page per 100 codes and per PIM_MAX_URL_BYTES of URL:
 * codes may be 100 characters), the attributes linking to a named reference entity (only when
 * one is named), and the small lists the project's scope is made of (channels, locales,
 * currencies, measurement families). Not the families: they only group select fields, which a
 * sync does not write. An attribute the PIM no longer has is simply absent, as in a full read.
 * A search refused for good is not the run's failure: a 414 (a proxy's bound on URLs, lower than
 * ours) is split in halves down to one code, and codes still refused are returned as
 * `unreadAttributes`, so their targets are settled as refused instead of failing every later
 * event job the same way. A transient failure still fails the read (the job retries it).
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
      first: { url: "attributes", query: searchQuery(search) },
      schema: attributePage,
      map: toPimAttribute,
    });
  const unread: { codes: string[]; reason: string }[] = [];
  const searchCodes = async (codes: readonly string[]): Promise<PimAttribute[]> => {
    try {
      return await searchAttributes(codeSearch(codes));
    } catch (error) {
      if (!refusedForGood(error)) throw error;
      if (error.status === 414 && codes.length > 1) {
        const half = Math.ceil(codes.length / 2);
        const parts = await Promise.all([searchCodes(codes.slice(0, half)), searchCodes(codes.slice(half))]);
        return parts.flat();
      }
      logger.warn(
        { attributes: codes.length, status: error.status, err: { message: error.message } },
        "PIM refused a targeted attribute search",
      );
      unread.push({ codes: [...codes], reason: error.message });
      return [];
    }
  };
  const chunks = chunksWithinUrl(targetedAttributes(targets), { maxCount: PAGE_LIMIT, maxBytes: PIM_MAX_URL_BYTES }, (codes) =>
    attributeSearchUrlBytes(http.baseUrl, codes),
  );
  const [named, linking, channels, locales, currencies, measurementFamilies] = await Promise.all([
    Promise.all(chunks.map(searchCodes)).then((pages) => pages.flat()),
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
  return {
    attributes: [...byCode.values()],
    channels,
    locales,
    currencies,
    families: [],
    measurementFamilies,
    ...(unread.length === 0 ? {} : { unreadAttributes: unread }),
  };
}
