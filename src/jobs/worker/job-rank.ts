/** The jobs that carry a few targeted changes: they take the next free slot ahead of full syncs. */
const SMALL_JOBS: ReadonlySet<string> = new Set(["sync.events", "options.add"]);

/**
 * How long a small job's head start over a full sync is: longer than a fleet's backlog of
 * scheduled syncs lasts (a minute was not: the large fleet's backlog lasted minutes under load,
 * and a small job queued late in it ranked behind the syncs due a minute before it). A small job goes ahead of every full
 * sync that became due less than this before it; a full sync due longer than this before a small
 * job goes first. So a full sync waits at most this long behind small jobs that keep arriving
 * (aging): it never starves, and one option added waits for no scheduled sync.
 */
export const SMALL_JOB_HEAD_START_MS = 600_000;

/**
 * A job's place for the next free slot: lower goes first. `dueMs` is when the job could start (its
 * creation plus its delay); a small job's rank is that minus the head start.
 */
export function jobRank(name: string, dueMs: number): number {
  return isSmallJob(name) ? dueMs - SMALL_JOB_HEAD_START_MS : dueMs;
}

/** Whether the job carries a few targeted changes: ahead of full syncs for a slot, and for a shared budget's requests. */
export function isSmallJob(name: string): boolean {
  return SMALL_JOBS.has(name);
}
