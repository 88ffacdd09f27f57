import { exitCodeOf, EXIT_CODES, type SyncReport } from "../../features/sync/sync-report.js";
import type { JobContext } from "./job-context.js";
import { SyncIncomplete } from "./sync-incomplete.js";

export interface SyncJobResult {
  readonly outcome: "done" | "held_back";
  /** For `sync.events`: the targets (attributes, reference entities) the run reconciled. */
  readonly targets?: number;
  /** For `sync.events`: targets given up after TARGET_ATTEMPTS failed runs, or refused for good (the schedule takes them over). */
  readonly givenUp?: number;
  readonly written: number;
  /** Options upserted and deleted in the collections written. */
  readonly upserts: number;
  readonly deletes: number;
  readonly unchanged: number;
  readonly heldBack: readonly { readonly collection: string; readonly names: number; readonly reason: string }[];
  readonly missing: readonly string[];
  readonly durationMs: number;
  /** For an admin's resync: whether it only planned, and what it wrote or would write per collection. */
  readonly dryRun?: boolean;
  readonly plan?: readonly PlannedCollection[];
}

/** What a run wrote, or a dry run would write, to one collection (at most PLAN_NAMES_SHOWN names of each kind). */
export interface PlannedCollection {
  readonly collection: string;
  readonly action: "none" | "replace" | "update";
  readonly upserts: readonly string[];
  readonly deletes: readonly string[];
  readonly heldBack: readonly string[];
  /** Names left out of the lists above beyond PLAN_NAMES_SHOWN. */
  readonly more: number;
}

/** The job's result from the sync's report; SyncIncomplete when something is left to retry. */
export async function syncResultOf(report: SyncReport, context: JobContext): Promise<SyncJobResult> {
  await logSynced(report, context);
  if (exitCodeOf(report) === EXIT_CODES.failure) throw new SyncIncomplete(report.failures, report.retryAfterMs, report.permanentFailures);
  return summaryOf(report);
}

export async function logSynced(report: SyncReport, context: JobContext): Promise<void> {
  const written = report.collections.filter((c) => c.written).length;
  await context.log(`synced: ${written} collection(s) written, ${report.missing.length} missing, ${report.failures.length} failure(s)`);
}

/** The result of a run, whatever its failures: the caller decides whether they fail the job. */
export function summaryOf(report: SyncReport): SyncJobResult {
  const written = report.collections.filter((c) => c.written).length;
  return {
    outcome: report.collections.some((c) => c.heldBack !== null) ? "held_back" : "done",
    written,
    upserts: report.collections.reduce((sum, c) => sum + (c.written ? c.upserts : 0), 0),
    deletes: report.collections.reduce((sum, c) => sum + (c.written ? c.deletes : 0), 0),
    unchanged: report.collections.filter((c) => c.action === "none").length,
    heldBack: report.collections.flatMap((c) =>
      c.heldBack ? [{ collection: c.collection, names: c.heldBack.names.length, reason: c.heldBack.reason }] : [],
    ),
    missing: report.missing.map((m) => m.collection),
    durationMs: report.durationMs,
  };
}
