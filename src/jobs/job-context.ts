import type { Logger } from "pino";
import type { AddOptionsIntentStore } from "../add-options/add-options-intent-store.js";
import type { AddOptionsOutcomeStore } from "../add-options/add-options-outcome-store.js";
import type { BatchRequest } from "../add-options/run-add-options-batch.js";
import type { PimEventStore } from "../events/pim-event-store.js";
import type { ProjectRuntime } from "../project-runtime.js";
import type { Settings } from "../settings/settings-schema.js";
import type { FullSyncProgress } from "./full-sync-progress.js";

/** What a project job's handler is given (see project-queue-binding.ts). */
export interface JobContext {
  readonly jobId: string;
  readonly runtime: ProjectRuntime;
  readonly settings: Settings;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** A line in the job's log (shown by `pim-sync jobs show`). */
  log(line: string): Promise<void>;
  /** Where a `--full` sync remembers, across its attempts, what it already replaced. */
  readonly fullSyncProgress?: FullSyncProgress;
  /** Merging of waiting add-options requests into this job's run; without it each runs alone. */
  readonly addOptionsBatching?: AddOptionsBatching;
  /** The targets PIM events left pending, for `sync.events` (src/events/). */
  readonly pimEvents?: PimEventBacklog;
}

export type PimEventBacklog = Pick<PimEventStore, "pending" | "settle" | "failed">;

export interface AddOptionsBatching {
  /** The add-options requests waiting right behind this job (see peek-mergeable-add-options.ts). */
  peek(project: number, leaderId: string): Promise<BatchRequest[]>;
  readonly outcomes: AddOptionsOutcomeStore;
  /** What each request's runs were adding, so a retried or replayed run reports it truthfully. */
  readonly intents?: AddOptionsIntentStore;
}
