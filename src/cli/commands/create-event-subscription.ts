import { createEventPlatformClient } from "../../upstreams/event-platform/event-platform-client.js";
import { STATUS_WHEN_UNSAID, subjectOf, subscriberNameOf } from "../../upstreams/event-platform/event-platform-assumptions.js";
import { SUBSCRIBED_EVENT_TYPES } from "../../features/events/pim-event.js";
import { createAgent } from "../../infra/http/create-agent.js";
import { retryPolicyOf } from "../../infra/http/retry-policy-of.js";
import { createLogger } from "../../infra/log/create-logger.js";
import { createPimAuth } from "../../upstreams/pim/pim-auth.js";
import { combineRedactors, createRedactor } from "../../infra/secrets/redactor.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";
import type { PimEventsSettings } from "../../settings/pim-events-settings-schema.js";
import type { ProjectSettings, Settings } from "../../settings/settings-schema.js";
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

const BEARER = "Bearer ";

/**
 * Creates a project's subscription through the Event Platform's API: a PIM token of the project's
 * connection (the PIM's own login), then the subscriber when asked, then the subscription with
 * the receiver's URL, the event types and the configured secrets. The token joins the output's
 * redactor before any request leaves, so no output can carry it.
 */
export async function createEventSubscription(args: {
  readonly settings: Settings;
  readonly project: ProjectSettings;
  readonly events: PimEventsSettings;
  readonly receiverUrl: string;
  readonly subscriber: SubscriberChoice;
  readonly io: CliIo;
}): Promise<CreatedSubscriptionReport> {
  const { settings, project, io } = args;
  const configured = redactorOfSettings(settings);
  const logger = createLogger({ level: settings.log_level, redactor: configured, destination: io.stderr });
  const dispatcher = createAgent({ connections: 2 });
  const retry = retryPolicyOf(settings);
  let createdSubscriberId: string | undefined;
  try {
    const auth = createPimAuth({
      baseUrl: project.pim.url,
      credentials: {
        clientId: project.pim.client_id,
        secret: project.pim.secret,
        username: project.pim.username,
        password: project.pim.password,
      },
      dispatcher,
      logger,
      retry,
      timeoutMs: settings.http.timeout_ms,
    });
    const authorization = await auth.authorize(io.signal);
    const pimToken = authorization.startsWith(BEARER) ? authorization.slice(BEARER.length) : authorization;
    io.useRedactor?.(combineRedactors([configured, createRedactor({ secrets: [pimToken] })]));

    const platform = createEventPlatformClient({
      baseUrl: settings.event_platform.url,
      pimUrl: project.pim.url,
      clientId: project.pim.client_id,
      pimToken,
      dispatcher,
      logger,
      retry,
      timeoutMs: settings.http.timeout_ms,
    });
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
  } finally {
    logger.flush();
    await dispatcher.close();
  }
}
