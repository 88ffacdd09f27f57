import { z } from "zod";

/**
 * The subscriber the platform answers `POST /subscriber` with (published: id, tenant_id,
 * client_id, name, subject, status, contact, created_at, updated_at). Only `id` is needed; the
 * rest is read when present and never required, so that a field added or left out upstream does
 * not fail a creation that worked. Loose: unknown fields are kept unread.
 */
export const subscriberAnswerSchema = z.looseObject({
  id: z.string().trim().min(1, "must not be empty"),
  subject: z.string().optional().catch(undefined),
  status: z.string().optional().catch(undefined),
});

export type SubscriberAnswer = z.output<typeof subscriberAnswerSchema>;

/** What a subscription is made of: the published body of `POST /subscriber/{id}/subscription`. */
export interface SubscriptionRequest {
  /** The PIM URL the events come from (the subscriber's subject). */
  readonly subject: string;
  readonly events: readonly string[];
  /** Where the platform POSTs the events: the worker's receiver, https. */
  readonly url: string;
  readonly secret: { readonly primary: string; readonly secondary?: string | undefined };
}

/** The published body, built from a request: `source` is always the PIM, `type` always https. */
export function subscriptionBodyOf(request: SubscriptionRequest): unknown {
  return {
    source: "pim",
    subject: request.subject,
    events: [...request.events],
    type: "https",
    config: {
      url: request.url,
      secret: {
        primary: request.secret.primary,
        ...(request.secret.secondary === undefined ? {} : { secondary: request.secret.secondary }),
      },
    },
  };
}
