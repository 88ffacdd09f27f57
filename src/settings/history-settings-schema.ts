import { z } from "zod";
import { PARSED_ONCE } from "./parsed-once.js";

const DAY_MS = 24 * 3600_000;

/** `history`: the record of every write pim-sync makes to the service (docs/change-history.md). */
export const historySettingsSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Record every write to the service in the change history."),
    retention_ms: z
      .int()
      .min(1_000)
      .default(90 * DAY_MS)
      .describe(
        "How long history entries are kept (milliseconds, default 90 days); older ones are trimmed when new ones are written and never shown.",
      ),
  })
  .describe("The change history: every write pim-sync makes to the configuration service.");

export type HistorySettings = z.infer<typeof historySettingsSchema>;
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = historySettingsSchema.parse({}, PARSED_ONCE);
