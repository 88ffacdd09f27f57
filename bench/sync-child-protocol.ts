/**
 * What the benchmark parent and its sync child exchange: a job in (argv or stdin), one JSON
 * result out (stdout). Both sides parse with zod: it is a process boundary like any other.
 */
import { z } from "zod";

export const syncChildJobSchema = z.strictObject({
  pimUrl: z.url(),
  serviceUrl: z.url(),
  project: z.int().positive(),
  /** File state store folder: kept between the first sync and the re-sync of one size. */
  stateDir: z.string().min(1),
  logLevel: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
  /** Record the change history (in a file under stateDir, as `sync --once` without Redis does): the history overhead bench. */
  history: z.boolean().default(false),
});

export type SyncChildJob = z.input<typeof syncChildJobSchema>;

const requestStatsSchema = z.object({
  requests: z.number(),
  reads: z.number(),
  writes: z.number(),
  retries: z.number(),
  rateLimited: z.number(),
  failures: z.number(),
});

export const syncChildResultSchema = z.object({
  summary: z.object({
    collections: z.number(),
    written: z.number(),
    replaced: z.number(),
    updated: z.number(),
    unchanged: z.number(),
    missing: z.number(),
    unsupported: z.number(),
    failures: z.number(),
    /** The first few failure messages, for a readable error when a run goes wrong. */
    failureSamples: z.array(z.string()),
    requests: z.object({ pim: requestStatsSchema, service: requestStatsSchema }),
  }),
  /** process.resourceUsage().maxRSS (KiB) / 1024. */
  maxRssMb: z.number(),
  /** syncProject alone, without process start and module loading. */
  durationMs: z.number(),
  /** Peaks of process.memoryUsage() sampled every 100 ms (MB): what the RSS is made of. */
  memory: z.object({ heapUsedMb: z.number(), heapTotalMb: z.number(), externalMb: z.number(), arrayBuffersMb: z.number() }),
  /** CPU time (user + system) of the whole child process: near the wall time means CPU-bound, not budget-bound. */
  cpuMs: z.number(),
});

export type SyncChildResult = z.infer<typeof syncChildResultSchema>;
