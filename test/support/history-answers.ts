/** One change-history entry as `pim-sync history --json` and the admin API answer it. */
export interface HistoryEntryAnswer {
  collection: string;
  option: string;
  kind: string;
  reason: string;
  job: string;
  trigger: string;
  requested_by?: string;
  at: string;
  labels_before: Record<string, string> | null;
  labels_after: Record<string, string> | null;
}

/** One held plan as `pim-sync held list --json` and the admin API answer it. */
export interface HeldPlanAnswer {
  id: string;
  collections: { collection: string; options: string[]; reason: string }[];
  held_at: string;
  approved: { by: string } | null;
  run: { job: string };
}
