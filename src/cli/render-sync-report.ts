import type { RequestStats } from "../infra/http/request-stats.js";
import type { SyncReport } from "../features/sync/sync-report.js";

/** The human summary of a sync or plan: what was (or would be) written, and what needs a look. */
export function renderSyncReport(report: SyncReport): string {
  const lines: string[] = [];
  const changed = report.collections.filter((c) => c.action !== "none");
  lines.push(
    `${report.dryRun ? "Plan" : "Sync"} of project ${report.project}${report.full ? " (full)" : ""}: ` +
      `${report.collections.length} collection(s) derived, ${changed.length} to change, ${report.collections.length - changed.length} unchanged.`,
  );
  for (const c of changed) {
    const what =
      c.action === "replace"
        ? `replace with ${c.upserts} option(s) (${c.reason === "full" ? "--full" : "no state yet"})`
        : `upsert ${c.upserts}, delete ${c.deletes}`;
    const status = report.dryRun ? "" : c.written ? "" : `  FAILED: ${c.error ?? "not written"}`;
    lines.push(`  ${c.collection}: ${report.dryRun ? "would " : ""}${what}${status}`);
  }
  const held = report.collections.filter((c) => c.heldBack !== null);
  if (held.length > 0) {
    lines.push(
      `Deletions held back, until an admin approves them (review them with 'pim-sync held', approve with 'pim-sync held approve'):`,
    );
    for (const c of held) {
      const names = c.heldBack?.names ?? [];
      lines.push(`  ${c.collection}: ${names.length} option(s): ${c.heldBack?.reason ?? ""}`);
      if (names.length > 0) lines.push(`    ${listBounded(names, HELD_BACK_NAMES_SHOWN)}`);
    }
  }
  if (report.missing.length > 0) {
    lines.push(`Collections missing in the configuration service (create them, then sync again):`);
    for (const m of report.missing) lines.push(`  ${m.collection} (needed by field ${m.field}, attribute ${m.attribute})`);
  }
  if (report.unsupported.length > 0) {
    lines.push(`Unsupported attributes (ignored):`);
    for (const u of report.unsupported) lines.push(`  ${u.attribute} (${u.type}): ${u.reason}`);
  }
  if (report.failures.length > 0) {
    lines.push(`Failures:`);
    for (const f of report.failures) lines.push(`  ${f}`);
  }
  lines.push(`Requests: PIM ${describeStats(report.requests.pim)}; service ${describeStats(report.requests.service)}.`);
  lines.push(`Duration: ${(report.durationMs / 1000).toFixed(1)} s.`);
  return lines.join("\n");
}

/** Held-back names shown per collection in the text summary (all of them are in --json). */
export const HELD_BACK_NAMES_SHOWN = 20;

function listBounded(names: readonly string[], bound: number): string {
  const shown = names.slice(0, bound).join(", ");
  return names.length > bound ? `${shown} and ${names.length - bound} more` : shown;
}

function describeStats(stats: RequestStats): string {
  const extra = [
    stats.retries > 0 ? `${stats.retries} retried` : "",
    stats.rateLimited > 0 ? `${stats.rateLimited} rate-limited` : "",
    stats.failures > 0 ? `${stats.failures} failed` : "",
  ].filter((part) => part !== "");
  return `${stats.requests} (${stats.reads} reads, ${stats.writes} writes${extra.length > 0 ? `, ${extra.join(", ")}` : ""})`;
}
