import { STATUS_WHEN_UNSAID, subjectOf, subscriberNameOf } from "../../upstreams/event-platform/event-platform-assumptions.js";
import { SUBSCRIBED_EVENT_TYPES } from "../../features/events/pim-event.js";
import { combineRedactors, createRedactor, type Redactor } from "../../infra/secrets/redactor.js";
import type { EventPlatformSession } from "../../features/events/event-platform-session.js";
import type { PimEventsSettings } from "../../settings/pim-events-settings-schema.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import { writeLine, type CliIo } from "../cli-io.js";

/** Who the subscription hangs on: a subscriber to create, or one that exists (its id). */
export type SubscriberChoice = { readonly technicalEmail: string } | { readonly subscriberId: string };

/** What `events --create` prints: ids, status and what was subscribed; never a secret or the token. */
export interface CreatedSubscriptionReport {
  readonly subscriber_id: string;
  readonly subscriber_created: boolean;
  readonly subscription_id: string;
  readonly status: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly subject: string;
}

/**
 * Creates a project's subscription through the Event Platform's API: a PIM token of the project's
 * connection (the PIM's own login), then the subscriber when asked, then the subscription with
 * the receiver's URL, the event types and the configured secrets. The token joins the output's
 * redactor before any request leaves, so no output can carry it.
 */
export async function createEventSubscription(args: {
  readonly project: ProjectSettings;
  readonly events: PimEventsSettings;
  readonly receiverUrl: string;
  readonly subscriber: SubscriberChoice;
  readonly session: EventPlatformSession;
  /** The output's redactor, which the PIM token joins before any request leaves. */
  readonly redactor: Redactor;
  readonly io: CliIo;
}): Promise<CreatedSubscriptionReport> {
  const { project, io, session } = args;
  let createdSubscriberId: string | undefined;
  try {
    const pimToken = await session.pimToken(io.signal);
    io.useRedactor?.(combineRedactors([args.redactor, createRedactor({ secrets: [pimToken] })]));
    const platform = session.platform(pimToken);
    let subscriberId: string;
    if ("subscriberId" in args.subscriber) {
      subscriberId = args.subscriber.subscriberId;
    } else {
      const subscriber = await platform.createSubscriber(
        { name: subscriberNameOf(project.id), technicalEmail: args.subscriber.technicalEmail },
        io.signal,
      );
      subscriberId = subscriber.id;
      createdSubscriberId = subscriber.id;
    }
    const subject = subjectOf(project.pim.url);
    const subscription = await platform.createSubscription(
      subscriberId,
      {
        subject,
        events: SUBSCRIBED_EVENT_TYPES,
        url: args.receiverUrl,
        secret: { primary: args.events.secret, secondary: args.events.secondary_secret },
      },
      io.signal,
    );
    return {
      subscriber_id: subscriberId,
      subscriber_created: createdSubscriberId !== undefined,
      subscription_id: subscription.id,
      status: subscription.status ?? STATUS_WHEN_UNSAID,
      url: args.receiverUrl,
      events: SUBSCRIBED_EVENT_TYPES,
      subject,
    };
  } catch (error) {
    // The subscriber stays on the platform: running again with it makes no second one.
    if (createdSubscriberId !== undefined)
      writeLine(
        io.stderr,
        `note: subscriber ${createdSubscriberId} was created; to try again, run with --subscriber ${createdSubscriberId} instead of --technical-email`,
      );
    throw error;
  }
}
