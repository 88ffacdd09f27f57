import type { UnwrittenCollection } from "../../core/domain/unwritten-collection.js";
import type { RequestStats } from "../../infra/http/request-stats.js";
import type { CollectionPlan } from "../../core/reconcile/collection-plan.js";

export interface CollectionOutcome {
  readonly collection: string;
  readonly attribute: string;
  readonly action: CollectionPlan["action"];
  readonly reason: CollectionPlan["reason"];
  readonly upserts: number;
  readonly deletes: number;
  readonly heldBack: CollectionPlan["heldBack"];
  /**
   * The options an option-level plan looked at (read alone); absent when the plan covered the
   * whole collection. What it says of held deletions holds for these options only.
   */
  readonly only?: readonly string[];
  /** false in a dry run, or when the write failed. */
  readonly written: boolean;
  readonly error?: string;
}

export interface MissingCollection {
  readonly collection: string;
  readonly field: string;
  readonly attribute: string;
}

export interface SyncReport {
  readonly project: number;
  readonly dryRun: boolean;
  readonly full: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly collections: readonly CollectionOutcome[];
  readonly missing: readonly MissingCollection[];
  readonly unsupported: readonly { readonly attribute: string; readonly type: string; readonly reason: string }[];
  /** Things that stopped part of the sync: failed reads or writes, inconsistent PIM data. */
  readonly failures: readonly string[];
  /**
   * The failures a retry would meet again unchanged (derivation problems, a collection listed
   * twice in the service, a request the upstream refused with a 4xx): a subset of `failures`.
   */
  readonly permanentFailures: readonly string[];
  /** The collections a failed read or write left unwritten (the failures name them too). */
  readonly unwritten: readonly UnwrittenCollection[];
  /** The longest Retry-After an upstream asked for among the failures, if any did. */
  readonly retryAfterMs: number | null;
  readonly requests: { readonly pim: RequestStats; readonly service: RequestStats };
}

export type { UnwrittenCollection } from "../../core/domain/unwritten-collection.js";

export const EXIT_CODES = { ok: 0, failure: 1, usage: 2, heldBack: 3 } as const;

/** 1 when anything failed, else 3 when a guard held deletions back, else 0. */
export function exitCodeOf(report: SyncReport): number {
  if (report.failures.length > 0) return EXIT_CODES.failure;
  if (report.collections.some((outcome) => outcome.heldBack !== null)) return EXIT_CODES.heldBack;
  return EXIT_CODES.ok;
}
