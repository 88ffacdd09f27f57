import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { addOptionsOutcomeSchema, type AddOptionsOutcome } from "./add-options-outcome.js";
import { MERGE_CAPS } from "./merge-caps.js";

/** Outcomes of requests carried out in another job's batch, for their own jobs to report. */
export interface AddOptionsOutcomeStore {
  /** Every outcome of one batch in one transaction: all of them are recorded, or none. */
  recordAll(project: number, outcomes: ReadonlyMap<string, AddOptionsOutcome>): Promise<void>;
  /**
   * The job's outcome, removed as it is read: the job's result keeps it from then on, and a
   * failed job retried later (after a config fix) is carried out again instead of failing with
   * a stale rejection. Lost if the job then fails to complete: it runs itself, idempotently.
   */
  take(project: number, jobId: string): Promise<AddOptionsOutcome | null>;
  /** Which of these jobs already have an outcome (one round trip). */
  recorded(project: number, jobIds: readonly string[]): Promise<Set<string>>;
}

export function createAddOptionsOutcomeStore(
  redis: RedisClient,
  prefix: string,
  ttlSeconds: number = MERGE_CAPS.outcomeTtlSeconds,
): AddOptionsOutcomeStore {
  // A project's outcomes carry its hash tag on a cluster: one batch's MULTI stays in one slot.
  const keyspace = keyspaceOf(redis, prefix);
  const addOptionsOutcomeKey = (project: number, jobId: string): string => keyspace.projectKey(project, "add-outcome", jobId);
  return {
    async recordAll(project, outcomes) {
      if (outcomes.size === 0) return;
      const multi = redis.multi();
      for (const [jobId, outcome] of outcomes) multi.set(addOptionsOutcomeKey(project, jobId), JSON.stringify(outcome), "EX", ttlSeconds);
      const results = await multi.exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (results === null || failed)
        throw new Error(`recording add-options outcomes failed: ${failed?.message ?? "the transaction was discarded"}`);
    },
    async take(project, jobId) {
      const key = addOptionsOutcomeKey(project, jobId);
      const results = await redis.multi().get(key).del(key).exec();
      const [error, text] = results?.[0] ?? [null, null];
      if (error) throw new Error(`reading the add-options outcome at ${key} failed: ${error.message}`);
      if (typeof text !== "string") return null;
      const parsed = addOptionsOutcomeSchema.safeParse(JSON.parse(text));
      if (!parsed.success)
        throw new Error(`corrupt add-options outcome at ${key}: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
      return parsed.data;
    },
    async recorded(project, jobIds) {
      if (jobIds.length === 0) return new Set();
      const pipeline = redis.pipeline();
      for (const jobId of jobIds) pipeline.exists(addOptionsOutcomeKey(project, jobId));
      const results = (await pipeline.exec()) ?? [];
      return new Set(jobIds.filter((_, index) => results[index]?.[1] === 1));
    },
  };
}
