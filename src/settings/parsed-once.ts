import type { z } from "zod";

/**
 * The parse options for a schema a process parses once (the config, a section's defaults): zod
 * would otherwise compile a fast parser for every object schema on its first parse, which costs
 * more than the one parse it speeds up, at every command's start (docs/benchmarks.md,
 * "Capacity and start-up"). Schemas parsed again and again (job data, answers) keep it.
 */
export const PARSED_ONCE: z.core.ParseContext<z.core.$ZodIssue> = { jitless: true };
