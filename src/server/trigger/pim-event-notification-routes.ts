import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { SIGNATURE_HEADERS, signatureMatches } from "../../features/events/event-signature.js";
import { stateOfNotificationType, subscriptionNotificationSchema } from "../../features/events/subscription-notification.js";
import type {
  SubscriptionNotificationObserver,
  SubscriptionNotificationOutcome,
} from "../../features/events/subscription-notification-outcome.js";
import type { SubscriptionStateStore } from "../../features/events/subscription-state-store.js";
import { createPerAddressWarnLog } from "../../infra/log/per-address-warn-log.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import { bodyDepthProblem } from "../http/body-depth-problem.js";
import { withRedisDeadline } from "../http/redis-deadline.js";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";
import { pimEventNotificationRouteSchema } from "./pim-event-notification-route-schemas.js";

export interface PimEventNotificationRoutesOptions {
  /** The configured projects; those with `pim.events` get a notification route. */
  readonly projects: readonly ProjectSettings[];
  readonly subscriptions: Pick<SubscriptionStateStore, "record">;
  /** Puts the project's fallback syncs in line with its state; the interval they run at now, or null. */
  readonly applySyncMode: (project: number) => Promise<{ readonly everyMs: number | null } | null>;
  readonly logger: Logger;
  readonly redisTimeoutMs: number;
  /** At most one refused-notification warning per client address this often. */
  readonly warnIntervalMs: number;
  readonly observer?: SubscriptionNotificationObserver | undefined;
}

/** The notification route's path: beside the events' own, one per project. */
export const PIM_EVENT_NOTIFICATIONS_ROUTE = "/v1/pim-event-notifications/:project";

/**
 * The Akeneo Event Platform's notification webhook: `POST /v1/pim-event-notifications/:project`
 * (and `HEAD`). Signed like events (the hex HMAC-SHA256 of the raw body, checked before anything
 * is parsed) with the subscriber's notification secret. A notification names the subscription
 * whose state changed; it is recorded (a later one is never overwritten by an older retry),
 * logged, and the project's fallback syncs are started or stopped at once. A configured project
 * is never answered 404 or a redirect: the platform would count it a failure.
 */
export async function pimEventNotificationRoutes(app: FastifyInstance, options: PimEventNotificationRoutesOptions): Promise<void> {
  const log = options.logger.child({ component: "pim-events" });
  const refused = createPerAddressWarnLog<{ ip: string; project: number; why: string }>({
    logger: log,
    intervalMs: options.warnIntervalMs,
    message: "PIM event subscription notification refused",
    leftOutMessage: "PIM event subscription notifications refused (left out of the log)",
    fieldsOf: (event) => event,
  });
  const count = (project: number, outcome: SubscriptionNotificationOutcome): void =>
    options.observer?.subscriptionNotificationReceived(project, outcome);
  const subscribed = options.projects.flatMap((project) => (project.pim.events ? [{ project, events: project.pim.events }] : []));
  const byId = new Map(subscribed.map((entry) => [String(entry.project.id), entry] as const));
  const bySubscription = new Map(
    subscribed.flatMap((entry) =>
      entry.events.subscription_id === undefined ? [] : [[entry.events.subscription_id, entry.project.id] as const],
    ),
  );
  const inTime = <T>(work: Promise<T>): Promise<T> => withRedisDeadline(options.redisTimeoutMs, work);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  const configuredOf = (request: FastifyRequest<{ Params: { project: string } }>) => byId.get(request.params.project);

  app.head<{ Params: { project: string } }>(PIM_EVENT_NOTIFICATIONS_ROUTE, { schema: HIDDEN_ROUTE }, async (request, reply) =>
    reply.code(configuredOf(request) ? 200 : 404).send(),
  );

  app.post<{ Params: { project: string } }>(
    PIM_EVENT_NOTIFICATIONS_ROUTE,
    { schema: pimEventNotificationRouteSchema },
    async (request, reply: FastifyReply) => {
      const configured = configuredOf(request);
      if (!configured) return reply.code(404).send({ error: `project ${request.params.project} has no PIM event subscription` });
      const { project, events } = configured;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signatures = SIGNATURE_HEADERS.map((name) => {
        const value = request.headers[name];
        return typeof value === "string" ? value : undefined;
      });
      const secrets =
        events.notification_secret !== undefined
          ? [events.notification_secret]
          : [events.secret, ...(events.secondary_secret === undefined ? [] : [events.secondary_secret])];
      if (!signatureMatches(body, signatures, secrets)) {
        const why = signatures.every((signature) => signature === undefined) ? "no signature" : "signature does not match";
        refused.warn({ ip: request.ip, project: project.id, why });
        count(project.id, "refused");
        return reply.code(401).send({
          error: `the notification must be signed with the subscriber's notification secret (X-AKENEO-SIGNATURE-PRIMARY): ${why}`,
        });
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString("utf8"));
      } catch {
        count(project.id, "refused");
        return reply.code(400).send({ errors: ["body is not valid JSON"] });
      }
      const tooDeep = bodyDepthProblem(json);
      if (tooDeep !== null) {
        count(project.id, "refused");
        return reply.code(400).send({ errors: [tooDeep] });
      }
      const parsed = subscriptionNotificationSchema.safeParse(json);
      if (!parsed.success) {
        count(project.id, "refused");
        return reply
          .code(400)
          .send({ errors: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`) });
      }
      const notification = parsed.data;
      // One subscriber has one notification URL for all its subscriptions: a notification sent to
      // one project's route may be about another project of the same subscriber.
      const owner = bySubscription.get(notification.subscription_id) ?? (events.subscription_id === undefined ? project.id : undefined);
      if (owner === undefined) {
        refused.warn({ ip: request.ip, project: project.id, why: `unknown subscription '${notification.subscription_id}'` });
        count(project.id, "unknown_subscription");
        return reply.code(403).send({
          error: `subscription_id: '${notification.subscription_id}' is not the subscription of project ${project.id} (pim.events.subscription_id) nor of any other configured project`,
        });
      }
      const fields = {
        project: owner,
        subscription: notification.subscription_id,
        type: notification.notification_type,
        reason: notification.reason,
        at: notification.timestamp,
      };
      const state = stateOfNotificationType(notification.notification_type);
      if (state === null) {
        log.warn(fields, "PIM event subscription notification of an unknown type: ignored");
        count(owner, "ignored");
        return reply.code(200).send({ status: "ignored", project: owner });
      }
      const fresh = await inTime(
        options.subscriptions.record(owner, {
          state,
          notificationType: notification.notification_type,
          subscriptionId: notification.subscription_id,
          reason: notification.reason ?? null,
          at: Date.parse(notification.timestamp),
          receivedAt: Date.now(),
        }),
      );
      if (!fresh) {
        log.info(fields, "PIM event subscription notification older than the one recorded: nothing changed");
        count(owner, "stale");
        return reply.code(200).send({ status: "stale", project: owner });
      }
      count(owner, "applied");
      if (state === "active") log.info({ ...fields, state }, "PIM event subscription resumed");
      else log.warn({ ...fields, state }, `PIM event subscription ${state}: the platform loses the project's events until it resumes`);
      // Recorded: were this to fail, the safety keeper applies the state at its next check.
      const mode = await inTime(options.applySyncMode(owner)).catch((error: unknown) => {
        log.warn({ project: owner, err: error }, "fallback syncs not updated; the next safety check does it");
        return undefined;
      });
      return reply.code(200).send({
        status: "applied",
        project: owner,
        state,
        ...(mode === undefined || mode === null ? {} : { fallback_every_ms: mode.everyMs }),
      });
    },
  );
}
