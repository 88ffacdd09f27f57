import { z } from "zod";
import { HISTORY_KINDS, HISTORY_TRIGGERS, type HistoryEntry } from "./history-entry.js";

const labelsSchema = z.record(z.string(), z.string());

/**
 * One option in a group: its code alone when no labels are recorded for it (a replace rewriting
 * it unchanged, or with nothing known before), else `[code, labels before, labels after]` and,
 * for a rename, its earlier spellings as a fourth item. A bare string is the common case: a
 * replace of a million options stores a million codes, not a million objects.
 */
const optionChangeSchema = z.union([
  z.string(),
  z.tuple([z.string(), labelsSchema.nullable(), labelsSchema.nullable()]),
  z.tuple([z.string(), labelsSchema.nullable(), labelsSchema.nullable(), z.array(z.string())]),
]);
export type OptionChange = z.infer<typeof optionChangeSchema>;

/**
 * Options that share everything but their code and labels: one collection, kind, reason, run and
 * time. Stored as written, so that what every entry of a chunk has in common is stored once.
 */
export const historyGroupSchema = z.object({
  collection: z.string(),
  kind: z.enum(HISTORY_KINDS),
  reason: z.string(),
  job: z.string(),
  trigger: z.enum(HISTORY_TRIGGERS),
  requestedBy: z.string().optional(),
  at: z.string(),
  options: z.array(optionChangeSchema),
});
export type HistoryGroup = z.infer<typeof historyGroupSchema>;

/** What one written chunk adds to the history: its groups, in the order they were formed. */
export const historyBatchSchema = z.array(historyGroupSchema);
export type HistoryBatch = readonly HistoryGroup[];

/** Options a batch records; an empty batch is not stored. */
export function optionsIn(batch: HistoryBatch): number {
  let count = 0;
  for (const group of batch) count += group.options.length;
  return count;
}

/** The entries a batch stands for, one per option, group by group (the order reads page in). */
export function entriesOfBatch(batch: HistoryBatch): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const group of batch) {
    const { collection, kind, reason, job, trigger, requestedBy, at } = group;
    for (const change of group.options) {
      const [option, labelsBefore, labelsAfter, renamedFrom] = typeof change === "string" ? [change, null, null, undefined] : change;
      entries.push({
        collection,
        option,
        kind,
        labelsBefore,
        labelsAfter,
        ...(renamedFrom === undefined ? {} : { renamedFrom }),
        reason,
        job,
        trigger,
        ...(requestedBy === undefined ? {} : { requestedBy }),
        at,
      });
    }
  }
  return entries;
}
