import { z } from "zod";
import { SUBSCRIPTION_STATES, subscriptionNotificationSchema } from "../../features/events/subscription-notification.js";
import { answer, refusals } from "../openapi/answer-schemas.js";
import { routeSchema } from "../openapi/route-schema.js";

const projectParams = z.object({ project: z.string().describe("the project id the subscriber's notification URL names") });

const signatureHeaders = z.object({
  "x-akeneo-signature-primary": z
    .string()
    .optional()
    .describe("hex HMAC-SHA256 of the raw body with the subscriber's notification secret (`pim.events.notification_secret`)"),
  "x-akeneo-signature-algorithm": z.string().optional().describe("`HmacSHA256`"),
});

export const pimEventNotificationRouteSchema = routeSchema({
  summary: "Receive an Event Platform notification: a subscription suspended, revoked or resumed",
  description:
    "The Akeneo Event Platform's notification webhook (the subscriber's `notification_webhook_url`). Authenticated by the body's HMAC signature, not a bearer token. The subscription's state is recorded, logged, exported as `pim_sync_pim_event_subscription_state`, and the project's fallback syncs (every `pim.events.fallback_interval_ms`) start or stop. A notification about another configured project's subscription (one subscriber, one notification URL) is applied to that project. The same path answers HEAD (200 for a subscribed project); HEAD routes are left out of this description.",
  tags: ["events"],
  params: projectParams,
  headers: signatureHeaders,
  body: subscriptionNotificationSchema,
  answers: {
    200: answer(
      "applied (the state recorded), stale (older than the notification already recorded: nothing changed) or ignored (a `notification_type` pim-sync does not know: logged, nothing changed)",
      z.object({
        status: z.enum(["applied", "stale", "ignored"]),
        project: z.int().optional().describe("the project whose subscription it is"),
        state: z.enum(SUBSCRIPTION_STATES).optional().describe("for `applied`: the subscription's state now"),
        fallback_every_ms: z
          .int()
          .nullable()
          .optional()
          .describe("for `applied`: the interval of the project's fallback syncs now, null when there are none"),
      }),
    ),
    ...refusals(400, 401, 403, 404, 503),
  },
});
