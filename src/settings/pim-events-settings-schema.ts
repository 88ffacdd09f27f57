import { z } from "zod";
import { secret } from "./secret.js";

/** A subscription secret: long enough that the HMAC cannot be brute-forced from a few signed bodies. */
const subscriptionSecret = secret(z.string().min(16, "must be at least 16 characters"));

/**
 * `projects[].pim.events`: the Akeneo Event Platform subscription that tells this project of PIM
 * changes (src/features/events/). The secrets are the subscription's; give them as `${VAR}`.
 */
export const pimEventsSchema = z
  .strictObject({
    secret: subscriptionSecret.describe(
      "The subscription's primary secret: events signed with it (X-AKENEO-SIGNATURE-PRIMARY or -SECONDARY) are accepted. From the environment (`${VAR}`).",
    ),
    secondary_secret: subscriptionSecret
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
    notification_secret: subscriptionSecret
      .optional()
      .describe(
        "The subscriber's `notification_webhook_secret`: the Event Platform's notifications (a subscription suspended, revoked or resumed) sent to `/v1/pim-event-notifications/<project>` must be signed with it. Unset: they must be signed with `secret` or `secondary_secret`. From the environment (`${VAR}`).",
      ),
    subscription_id: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(200)
      .optional()
      .describe(
        "The subscription's id (`pim-sync events --create` prints it): a notification about another subscription is refused (403) unless it is another configured project's. Unset: a notification sent to this project's route is taken as about this project's subscription.",
      ),
    fallback_interval_ms: z
      .int()
      .min(1_000)
      .max(86_400_000)
      .default(300_000)
      .describe(
        "While the subscription is suspended or revoked, or no event has come for `silence_limit_ms`, the project is also synced this often (a whole sync, besides its `schedule`), so that changes still arrive within minutes; the fallback stops when the subscription resumes and events come again (default 300000 ms: 5 minutes).",
      ),
    silence_limit_ms: z
      .int()
      .min(60_000)
      .default(3_600_000)
      .describe(
        "No event (duplicates included) for longer than this counts as a silent subscription: the project is synced every `fallback_interval_ms` until an event comes (default 3600000 ms: an hour). A project that has never received an event is not counted silent.",
      ),
  })
  .describe("The Akeneo Event Platform subscription of this project (docs/pim-events.md).");

export type PimEventsSettings = z.output<typeof pimEventsSchema>;
