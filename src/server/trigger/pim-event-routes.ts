import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { createPerAddressWarnLog } from "../../infra/log/per-address-warn-log.js";
import { createRateLimitedWarnLog } from "../../infra/log/rate-limited-warn-log.js";
import { bodyDepthProblem } from "../http/body-depth-problem.js";
import { withRedisDeadline } from "../http/redis-deadline.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import { SIGNATURE_HEADERS, signatureMatches } from "../../features/events/event-signature.js";
import { targetKey, targetOfEvent } from "../../features/events/event-target.js";
import { pimEventSchema } from "../../features/events/pim-event.js";
import type { PimEventStore } from "../../features/events/pim-event-store.js";
import type { EventWindow } from "../../features/events/event-window.js";
import type { PimEventObserver } from "../../features/events/pim-event-outcome.js";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";
import { pimEventRouteSchema } from "./pim-event-route-schemas.js";

export interface PimEventRoutesOptions {
  /** The configured projects; those with `pim.events` get a receiver. */
  readonly projects: readonly ProjectSettings[];
  readonly store: PimEventStore;
  /** Queues (or joins) the project's targeted sync, to start when the window closes. */
  readonly enqueue: (project: number, window: EventWindow) => Promise<void>;
  readonly logger: Logger;
  /** Recording answers 503 when Redis has not taken the event within this. */
  readonly redisTimeoutMs: number;
  /** At most one refused-event warning per client address this often. */
  readonly warnIntervalMs: number;
  /** At most one unusable-event warning per project this often (default a minute). */
  readonly unusableWarnIntervalMs?: number;
  /** Told what became of each event sent to a configured project (the metrics count them). */
  readonly observer?: PimEventObserver | undefined;
}

const UNUSABLE_WARN_INTERVAL_MS = 60_000;

/** The receiver's path: one Event Platform subscription per project. */
export const PIM_EVENTS_ROUTE = "/v1/pim-events/:project";

/**
 * The Akeneo Event Platform's way in: `POST /v1/pim-events/:project` (and `HEAD`, which the
 * platform asks before it accepts the URL). Authenticated by the body's HMAC, not a bearer
 * token: the signature is checked over the raw bytes, before anything is parsed. An accepted
 * event is recorded in Redis (deduplicated by its id) and answered 200 at once; the sync runs
 * later, in the project's queue. The platform revokes a subscription answered 404 and suspends
 * one answered 429 or 5xx again and again (losing what it sends meanwhile), so a configured
 * project is never answered 404 and nothing here throttles; 503 only when Redis is away (the
 * platform sends the event again).
 */
export async function pimEventRoutes(app: FastifyInstance, options: PimEventRoutesOptions): Promise<void> {
  const log = options.logger.child({ component: "pim-events" });
  const refused = createPerAddressWarnLog<{ ip: string; project: number; why: string }>({
    logger: log,
    intervalMs: options.warnIntervalMs,
    message: "PIM event refused",
    leftOutMessage: "PIM events refused (left out of the log)",
    fieldsOf: (event) => event,
  });
  // Such an event is answered 200 (a 4xx would only be sent again until the platform gives up),
  // so this line and the metric are how an operator learns that the PIM sends what pim-sync cannot use.
  const unusable = createRateLimitedWarnLog<{ project: number; event: string; type: string; why: string }>({
    logger: log,
    intervalMs: options.unusableWarnIntervalMs ?? UNUSABLE_WARN_INTERVAL_MS,
    message: "PIM event unusable: recorded, nothing synced",
    leftOutMessage: "PIM events unusable (left out of the log)",
    keyOf: (event) => String(event.project),
    fieldsOf: (event) => event,
  });
  const count = (project: number, outcome: Parameters<PimEventObserver["pimEventReceived"]>[1]): void =>
    options.observer?.pimEventReceived(project, outcome);
  const byId = new Map(
    options.projects.flatMap((project) =>
      project.pim.events ? [[String(project.id), { project, events: project.pim.events }] as const] : [],
    ),
  );
  const inTime = <T>(work: Promise<T>): Promise<T> => withRedisDeadline(options.redisTimeoutMs, work);

  // The signature is over the exact bytes sent: this scope keeps the body as it came, whatever
  // its Content-Type (the platform's is JSON, a CloudEvents client may say cloudevents+json).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  const subscriptionOf = (request: FastifyRequest<{ Params: { project: string } }>) => byId.get(request.params.project);

  app.head<{ Params: { project: string } }>(PIM_EVENTS_ROUTE, { schema: HIDDEN_ROUTE }, async (request, reply) => {
    if (!subscriptionOf(request)) return reply.code(404).send();
    return reply.code(200).send();
  });

  app.post<{ Params: { project: string } }>(PIM_EVENTS_ROUTE, { schema: pimEventRouteSchema }, async (request, reply: FastifyReply) => {
    const subscription = subscriptionOf(request);
    if (!subscription) return reply.code(404).send({ error: `project ${request.params.project} has no PIM event subscription` });
    const { project, events } = subscription;
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signatures = SIGNATURE_HEADERS.map((name) => {
      const value = request.headers[name];
      return typeof value === "string" ? value : undefined;
    });
    const secrets = [events.secret, ...(events.secondary_secret === undefined ? [] : [events.secondary_secret])];
    if (!signatureMatches(body, signatures, secrets)) {
      const why = signatures.every((signature) => signature === undefined) ? "no signature" : "signature does not match";
      refused.warn({ ip: request.ip, project: project.id, why });
      count(project.id, "refused");
      return reply
        .code(401)
        .send({ error: `the event must be signed with the subscription's secret (X-AKENEO-SIGNATURE-PRIMARY): ${why}` });
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
    const parsed = pimEventSchema.safeParse(json);
    if (!parsed.success) {
      count(project.id, "refused");
      return reply.code(400).send({ errors: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`) });
    }
    const event = parsed.data;
    if (events.subject !== undefined && event.subject !== events.subject) {
      refused.warn({ ip: request.ip, project: project.id, why: `subject '${event.subject ?? ""}' is not the configured tenant` });
      count(project.id, "refused");
      return reply.code(403).send({ error: `subject: events of project ${project.id} must come from tenant ${events.subject}` });
    }
    const target = targetOfEvent(event);
    const correlation = request.headers["x-correlation-id"];
    const fresh = await inTime(
      options.store.record(project.id, {
        id: event.id,
        type: event.type,
        subject: event.subject ?? null,
        correlationId: typeof correlation === "string" ? correlation.slice(0, 200) : null,
        target: "ignored" in target ? null : targetKey(target),
        ignored: "ignored" in target ? target.ignored : null,
        receivedAt: Date.now(),
      }),
    );
    if ("ignored" in target) {
      if (!fresh) {
        count(project.id, "duplicate");
        return reply.code(200).send({ status: "duplicate" });
      }
      if (target.unusable) {
        count(project.id, "unusable");
        unusable.warn({ project: project.id, event: event.id, type: event.type, why: target.ignored });
        return reply.code(200).send({ status: "unusable", reason: target.ignored });
      }
      count(project.id, "ignored");
      log.info({ project: project.id, event: event.id, type: event.type, why: target.ignored }, "PIM event recorded, nothing to sync");
      return reply.code(200).send({ status: "ignored" });
    }
    // Also for a duplicate: the first delivery may have been recorded and its job not queued
    // (Redis failed in between); a job that finds nothing pending reads nothing.
    await inTime(options.enqueue(project.id, { quietMs: events.quiet_ms, maxMs: events.window_ms }));
    count(project.id, fresh ? "accepted" : "duplicate");
    if (fresh) log.info({ project: project.id, event: event.id, type: event.type, target: targetKey(target) }, "PIM event recorded");
    return reply.code(200).send({ status: fresh ? "recorded" : "duplicate" });
  });
}
