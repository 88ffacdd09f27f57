import type { PimAttributeOption, PimCatalogStructure, PimRecord } from "../../core/domain/pim-catalog.js";
import type { RequestStats } from "../../infra/http/request-stats.js";
import type { OpenedList } from "../../upstreams/pim/follow-next-links.js";
import type { SyncTargets } from "../../core/domain/sync-targets.js";
import type { PimItemReader } from "./confirm-deletions.js";

/** The part of the PIM client a sync reads through. */
export interface PimReader extends PimItemReader {
  readStructure(signal?: AbortSignal): Promise<PimCatalogStructure>;
  /** Needed only by targeted syncs (`SyncInput.targets`). */
  readTargetStructure?(targets: SyncTargets, signal?: AbortSignal): Promise<PimCatalogStructure>;
  /** An attribute's options with the first page read, so its count orders the reads. */
  openAttributeOptions(attribute: string, signal?: AbortSignal): Promise<OpenedList<PimAttributeOption>>;
  referenceEntityRecordPages(entity: string, signal?: AbortSignal): AsyncIterable<PimRecord[]>;
  readonly stats: RequestStats;
}
