import type { PimAttributeOption, PimCatalogStructure, PimRecord } from "../domain/pim-catalog.js";
import type { RequestStats } from "../http/request-stats.js";
import type { PimItemReader } from "./confirm-deletions.js";

/** The part of the PIM client a sync reads through. */
export interface PimReader extends PimItemReader {
  readStructure(signal?: AbortSignal): Promise<PimCatalogStructure>;
  attributeOptionPages(attribute: string, signal?: AbortSignal): AsyncIterable<PimAttributeOption[]>;
  referenceEntityRecordPages(entity: string, signal?: AbortSignal): AsyncIterable<PimRecord[]>;
  readonly stats: RequestStats;
}
