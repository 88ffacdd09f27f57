/**
 * The sync's pipeline limits. None of them is a setting (the settings schema holds no knob for
 * them): they are tuned against the upstreams' budgets and the worker's memory, and live here
 * only. Callers (tests, the benchmark) may still pass other values through `SyncInput`.
 */

/**
 * Option sources read at once. Four keep the PIM's four request slots busy (a list without a
 * count is read one page after another) while bounding memory to four sources' options.
 */
export const DEFAULT_SOURCE_CONCURRENCY = 4;

/**
 * Sources read and not yet written, at most, and their options in all. A source hands its read
 * slot on once read, so the PIM keeps reading while writes wait for the service's 10
 * requests/s; these cap what the waiting sources hold. Four writing sources, as many as
 * before the stage existed: each holds its options and, while it plans a collection, that
 * collection's last-written state (8 let the re-sync's peak RSS reach 306 MB). Sources enter
 * in the order they were read. A long source (more than half the cap) counts for just over
 * half of it (see long-source-weight.ts).
 */
export const DEFAULT_WRITING_SOURCES = 4;
export const DEFAULT_WRITING_OPTIONS = 60_000;

/**
 * Attribute sources whose first page is read ahead of their turn, at most: their counts order
 * the reads (largest first, see reading-order.ts). 128 first pages of 100 options are a few MB.
 */
export const DEFAULT_OPEN_AHEAD = 128;

/** Options in one write request to the service (splitPlanWrites). */
export const DEFAULT_MAX_OPTIONS_PER_WRITE = 5000;
