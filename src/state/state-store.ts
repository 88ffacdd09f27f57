import type { ServiceLabels, ServiceOption } from "../domain/option-collection.js";

/**
 * What pim-sync last wrote to each collection of a project: the baseline the planner diffs
 * against, since the service cannot list a collection's options. Written only after the
 * service accepted a write.
 */
export interface StateStore {
  /** null when nothing was ever recorded for the collection (first sync, or lost state). */
  read(project: number, collection: string): Promise<Map<string, ServiceLabels> | null>;
  /** The collection now holds exactly these options. */
  replace(project: number, collection: string, options: readonly ServiceOption[]): Promise<void>;
  /** These options were upserted and these names deleted. */
  update(project: number, collection: string, upserts: readonly ServiceOption[], deletes: readonly string[]): Promise<void>;
  /** Remember options added through add-options, with their labels and when (see `recentlyAdded`). */
  recordAdded(project: number, collection: string, options: readonly ServiceOption[], atMs: number): Promise<void>;
  /**
   * Options added through add-options at or after `sinceMs`, name → labels: a sync must not
   * delete them yet, and a replace keeps them, even if the PIM's lists do not show them yet.
   * Records older than `sinceMs` are dropped from the store: a sync asks with "now minus the
   * grace", so an addition the grace no longer protects is forgotten, and once the PIM and a
   * sync have removed that option, add-options can add it again (it reads with `sinceMs` 0).
   */
  recentlyAdded(project: number, collection: string, sinceMs: number): Promise<Map<string, ServiceLabels>>;
  /** Forget a collection's options (a replace is under way): the next sync will replace it. */
  forget(project: number, collection: string): Promise<void>;
  close(): Promise<void>;
}
