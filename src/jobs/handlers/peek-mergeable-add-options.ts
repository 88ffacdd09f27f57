import type { Job } from "bullmq";
import type { AddOptionsOutcomeStore } from "../../features/add-options/add-options-outcome-store.js";
import type { BatchRequest } from "../../features/add-options/run-add-options-batch.js";
import { MERGE_CAPS } from "../../features/add-options/merge-caps.js";
import { addOptionsRequestSchema } from "../../features/add-options/add-options-request.js";

/** Waiting jobs read per round trip while looking for the end of the run. */
const PEEK_PAGE = 100;

/**
 * The add-options requests waiting right behind a running one, to carry out in its run: the
 * longest run of consecutive `options.add` jobs at the head of the project queue's waiting
 * jobs, in queue order, stopping at the first job of another name (a waiting sync is never
 * overtaken), at most `MERGE_CAPS.maxRequests` in all. Jobs whose data does not parse are left
 * for their own turn (they fail there with the reason), and so are jobs already carrying an
 * outcome. The jobs stay where they are: each completes on its own turn with its outcome.
 */
export async function peekMergeableAddOptions(args: {
  readonly queue: { getWaiting(start?: number, end?: number): Promise<Job[]> };
  readonly project: number;
  readonly leaderId: string;
  readonly outcomes: AddOptionsOutcomeStore;
  readonly maxRequests?: number;
}): Promise<BatchRequest[]> {
  const room = (args.maxRequests ?? MERGE_CAPS.maxRequests) - 1;
  const found: BatchRequest[] = [];
  for (let start = 0; found.length < room; start += PEEK_PAGE) {
    const page = await args.queue.getWaiting(start, start + PEEK_PAGE - 1);
    let runEnded = page.length < PEEK_PAGE;
    for (const job of page) {
      if (job.name !== "options.add") {
        runEnded = true;
        break;
      }
      if (job.id === undefined || job.id === args.leaderId) continue;
      // The options.add entry's schema (catalog/options-add.ts), not the catalog: that would import its handler's deps back.
      const parsed = addOptionsRequestSchema.safeParse(job.data);
      if (!parsed.success || parsed.data.project !== args.project) continue;
      found.push({ id: job.id, request: parsed.data });
      if (found.length >= room) break;
    }
    if (runEnded) break;
  }
  const recorded = await args.outcomes.recorded(
    args.project,
    found.map(({ id }) => id),
  );
  return found.filter(({ id }) => !recorded.has(id));
}
