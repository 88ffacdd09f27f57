import type { Logger } from "pino";
import type { ConfigServiceClient } from "../../upstreams/config-service/config-service-client.js";
import type { HistoryStore } from "../../stores/history/history-store.js";
import type { RunOrigin } from "../../stores/history/run-origin.js";
import type { PimClient } from "../../upstreams/pim/pim-client.js";
import type { StateStore } from "../../stores/state/state-store.js";
import type { AddOptionsIntentStore } from "./add-options-intent-store.js";
import type { CatalogCache } from "./catalog-cache.js";
import type { PimOptionReader } from "./pim-option-lookup.js";

/** What an add-options run talks to and records in. */
export interface AddOptionsDeps {
  readonly pim: PimOptionReader & Pick<PimClient, "readStructure" | "stats">;
  readonly service: Pick<ConfigServiceClient, "listCollections" | "addOptions" | "updateOptions" | "stats">;
  readonly state: StateStore;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Shared by the jobs of a worker; without it every run reads the structure and the list. */
  readonly catalog?: CatalogCache;
  /**
   * Where each request's writes are announced before they are sent, so a later run of it lists
   * what an earlier one added (the worker's jobs, which are retried); without it an outcome
   * lists only what its own run added.
   */
  readonly intents?: AddOptionsIntentStore;
  /** Where each accepted write is recorded, as `added` (src/stores/history/); none: not recorded. */
  readonly history?: HistoryStore;
  /** The job and trigger of a request of the batch, by its id (the worker's job refs); a CLI run's own by default. */
  readonly originOf?: (requestId: string) => RunOrigin;
}
