import { z } from "zod";

/** A subscription secret: long enough that the HMAC cannot be brute-forced from a few signed bodies. */
const secret = z.string().min(16, "must be at least 16 characters");

/**
 * `projects[].pim.events`: the Akeneo Event Platform subscription that tells this project of PIM
 * changes (src/events/). The secrets are the subscription's; give them as `${VAR}`.
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
      .describe("Events of the project arriving within this long of the first are merged into one targeted sync (default 1000 ms)."),
    option_read_limit: z
      .int()
      .min(0)
      .max(1_000)
      .default(20)
      .describe(
        "An attribute with at most this many options changed (attribute-option events pending for one targeted sync) has each read alone (one request per option); above it, or after an attribute event, its whole option list is read (a page per 100 options). 0 always reads whole lists. Default 20: as many requests as a 2,000-option list's pages.",
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
