import type { Logger } from "pino";
import type { ConfigServiceClient } from "../../upstreams/config-service/config-service-client.js";
import type { DesiredCollection, SelectField } from "../../core/domain/option-collection.js";
import type { SyncTargets } from "../../core/domain/sync-targets.js";
import type { NamingTemplates, ProjectFilters } from "../../core/derive/index.js";
import type { HistoryStore } from "../../stores/history/history-store.js";
import type { RunOrigin } from "../../stores/history/run-origin.js";
import type { CollectionPlan, DeletionGuard } from "../../core/reconcile/collection-plan.js";
import type { StateStore } from "../../stores/state/state-store.js";
import type { HeldStore } from "./held/held-store.js";
import type { PimReader } from "./pim-reader.js";

export interface SyncDeps {
  readonly pim: PimReader;
  readonly service: Pick<ConfigServiceClient, "listCollections" | "updateOptions" | "stats">;
  readonly state: StateStore;
  readonly logger: Logger;
  readonly now?: () => Date;
  /** Where each accepted write is recorded (src/stores/history/); none: not recorded. */
  readonly history?: HistoryStore;
  /**
   * The project's held plans (src/features/sync/held/): read before the run, so that what they
   * hold is never deleted and what an admin approved goes ahead, and kept after it. Required: no
   * run can plan deletions without them.
   */
  readonly held: HeldStore;
}

export interface SyncInput {
  readonly project: number;
  readonly filters: ProjectFilters;
  readonly naming: NamingTemplates;
  readonly guard: DeletionGuard;
  readonly full: boolean;
  readonly allowMassDelete: boolean;
  /** Plan only: read everything, write nothing (neither the service nor the state). */
  readonly dryRun: boolean;
  /** Option sources read at once; the PIM client's own limiter still caps requests in flight. */
  readonly sourceConcurrency?: number;
  /** Sources read and waiting for the service or writing, at most (their options are in memory). */
  readonly writingSources?: number;
  /** Options of those sources, at most (a single larger source still goes through alone). */
  readonly writingOptions?: number;
  /** Options in one write request (DEFAULT_MAX_OPTIONS_PER_WRITE when left out). */
  readonly maxOptionsPerWrite?: number;
  /**
   * Options added through add-options this recently are never deleted (the PIM may lag): the
   * setting `add_options.recent_addition_grace_ms`, whose schema holds the default.
   */
  readonly recentAdditionGraceMs: number;
  /** The run's job and trigger, as the history records them (a CLI run of its own by default). */
  readonly origin?: RunOrigin;
  /** How long a plan of deletions this run holds waits for an admin (`held_deletions.expiry_ms`). */
  readonly heldExpiryMs: number;
  /**
   * With `full`: collections an earlier attempt of this same sync already replaced. Their state
   * is exactly what that replace wrote, so they get the difference, not a second replace.
   */
  readonly alreadyReplaced?: ReadonlySet<string>;
  /** With `full`: told of each collection replaced (after the service and the state have it). */
  readonly onReplaced?: (collection: string) => Promise<void>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { readonly done: number; readonly total: number; readonly collection: string }) => void;
  /** Sees each derived collection with its plan (for dry-run output); not kept by the sync itself. */
  readonly onCollection?: (collection: DesiredCollection, plan: CollectionPlan) => void;
  readonly onFields?: (fields: readonly SelectField[]) => void;
  /**
   * A targeted sync (src/features/events/): only the structure these targets need is read, and only
   * their collections are reconciled, with the same planning, deletion check and guard.
   */
  readonly targets?: SyncTargets;
}
