import { z } from "zod";

/**
 * What one write did to one option. `replaced`: written again by a whole-collection replace.
 * `kept`: not a write, the one entry that is not: an admin's approved deletion that a run found
 * it can never carry out (src/features/sync/held/), so the option stays, and the history says why.
 */
export const HISTORY_KINDS = ["added", "relabelled", "renamed", "deleted", "replaced", "kept"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/**
 * Who asked for the run that wrote: its schedule, a trigger request, the CLI, an admin (or a
 * replay of a job), or the PIM's events (a targeted sync).
 */
export const HISTORY_TRIGGERS = ["schedule", "trigger", "cli", "admin", "replay", "event"] as const;
export type HistoryTrigger = (typeof HISTORY_TRIGGERS)[number];

const labelsSchema = z.record(z.string(), z.string());

/**
 * One option's change, as stored and as answered (snake_case on the way out). Labels are the
 * service's; `labels_before` is null where nothing was known (a first sync, an addition).
 * No secret can be in one: every field comes from option data, the run's origin or the plan.
 */
export const historyEntrySchema = z.object({
  collection: z.string(),
  option: z.string(),
  kind: z.enum(HISTORY_KINDS),
  labelsBefore: labelsSchema.nullable(),
  labelsAfter: labelsSchema.nullable(),
  /** A rename's earlier spellings. */
  renamedFrom: z.array(z.string()).optional(),
  reason: z.string(),
  /** The job's ref (`67/12`) or, for a run outside the worker, the run's own id (`cli/…`). */
  job: z.string(),
  trigger: z.enum(HISTORY_TRIGGERS),
  /** Who asked, when known (an admin's name, a trigger request's `requested_by`). */
  requestedBy: z.string().optional(),
  /** When the service confirmed the write (ISO 8601). */
  at: z.string(),
});

export type HistoryEntry = z.infer<typeof historyEntrySchema>;
