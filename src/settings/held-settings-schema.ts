import { z } from "zod";
import { PARSED_ONCE } from "./parsed-once.js";

const DAY_MS = 24 * 3600_000;

/** `held_deletions`: deletions the guard held back, kept for an admin's review (docs/change-history.md). */
export const heldSettingsSchema = z
  .strictObject({
    expiry_ms: z
      .int()
      .min(1_000)
      .default(7 * DAY_MS)
      .describe(
        "How long a held plan can be approved after the run that held it last (milliseconds, default 7 days); an expired pending plan is dropped (the next run that still finds the deletions holds them again), an approved one waits for the run that carries it out.",
      ),
  })
  .describe("Deletions the deletion guard held back, kept for review and approval.");

export type HeldSettings = z.infer<typeof heldSettingsSchema>;
export const DEFAULT_HELD_SETTINGS: HeldSettings = heldSettingsSchema.parse({}, PARSED_ONCE);
