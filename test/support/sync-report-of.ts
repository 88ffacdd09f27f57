import { createRequestStats } from "../../src/infra/http/request-stats.js";
import type { CollectionOutcome, SyncReport } from "../../src/features/sync/sync-report.js";

/**
 * A finished run's report for tests of what comes after a run (held review, job results): one
 * outcome per entry, each an unchanged write of `color` unless the entry says otherwise.
 */
export function syncReportOf(collections: readonly Partial<CollectionOutcome>[], project = 67): SyncReport {
  return {
    project,
    dryRun: false,
    full: false,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
    collections: collections.map((outcome) => ({
      collection: "color",
      attribute: "color",
      action: "update",
      reason: "changed",
      upserts: 0,
      deletes: 0,
      heldBack: null,
      written: true,
      ...outcome,
    })),
    missing: [],
    unsupported: [],
    failures: [],
    permanentFailures: [],
    unwritten: [],
    retryAfterMs: null,
    requests: { pim: createRequestStats(), service: createRequestStats() },
  };
}
