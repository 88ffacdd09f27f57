import type { ServiceLabels, ServiceOption } from "../../core/domain/option-collection.js";

/**
 * Part of a collection's last-written state: the entries whose names were asked for, and how
 * many options the whole state holds (a deletion guard needs the size, not the entries).
 */
export interface SomeLastWritten {
  readonly entries: Map<string, ServiceLabels>;
  readonly size: number;
}

/**
 * What pim-sync last wrote to each collection of a project: the baseline the planner diffs
 * against, since the service cannot list a collection's options. Written only after the
 * service accepted a write.
 */
export interface StateStore {
  /** null when nothing was ever recorded for the collection (first sync, or lost state). */
  read(project: number, collection: string): Promise<Map<string, ServiceLabels> | null>;
  /**
   * Only the entries whose name `wanted` accepts, and the state's size: an option-level plan
   * needs a few options of a state that may hold tens of thousands (reading and decoding them all
   * cost 0.2–0.3 s per collection). null as for `read`.
   */
  readSome(project: number, collection: string, wanted: (name: string) => boolean): Promise<SomeLastWritten | null>;
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
  /**
   * How many options pim-sync deleted from the collection within the last `windowMs` without an
   * admin's review: the deletion guard counts them with a run's own. Older records are dropped.
   * Both this and recordDeleted tell time by the store's clock (Redis' `TIME`), never the
   * caller's: workers whose clocks differ count one window alike.
   */
  deletedWithin(project: number, collection: string, windowMs: number): Promise<number>;
  /** `count` options were deleted from the collection just now (by the store's clock). */
  recordDeleted(project: number, collection: string, count: number): Promise<void>;
  /** An admin reviewed the collection's deletions (an approved plan, `--allow-mass-delete`): the count starts again. */
  forgetDeleted(project: number, collection: string): Promise<void>;
  /** Forget a collection's options (a replace is under way): the next sync will replace it. */
  forget(project: number, collection: string): Promise<void>;
  close(): Promise<void>;
}
