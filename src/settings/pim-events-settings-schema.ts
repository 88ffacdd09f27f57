import { z } from "zod";

/** A subscription secret: long enough that the HMAC cannot be brute-forced from a few signed bodies. */
const secret = z.string().min(16, "must be at least 16 characters");

/**
 * `projects[].pim.events`: the Akeneo Event Platform subscription that tells this project of PIM
 * changes (src/features/events/). The secrets are the subscription's; give them as `${VAR}`.
 */
export const pimEventsSchema = z
  .strictObject({
    secret: secret.describe(
      "The subscription's primary secret: events signed with it (X-AKENEO-SIGNATURE-PRIMARY or -SECONDARY) are accepted. From the environment (`${VAR}`).",
    ),
    secondary_secret: secret
      .optional()
      .describe("A second accepted secret, while the subscription's secret is being rotated. From the environment (`${VAR}`)."),
    window_ms: z
      .int()
      .min(0)
      .max(60_000)
      .default(1_000)
      .describe(
        "The longest merge window: events of the project arriving within this long of the first are merged into one targeted sync, which starts at the latest this long after the first (default 1000 ms).",
      ),
    quiet_ms: z
      .int()
      .min(0)
      .max(60_000)
      .default(200)
      .describe(
        "The merge window closes early once no event of the project has arrived for this long (the burst is over): the targeted sync starts then, at most `window_ms` after the first event (default 200 ms).",
      ),
    subject: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .optional()
      .describe(
        "The PIM tenant id events must carry as their `subject`; events for another tenant are refused (403). Unset: any subject is accepted and recorded.",
      ),
  })
  .describe("The Akeneo Event Platform subscription of this project (docs/pim-events.md).");

export type PimEventsSettings = z.output<typeof pimEventsSchema>;
