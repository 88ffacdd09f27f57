import type { ActivationClient } from "../../upstreams/activation/activation-client.js";
import { OfferKeyError } from "../../features/activation/offer-key.js";
import { keyOffers } from "../../features/activation/plan-offer-batches.js";
import { CONNECTION_LIST_CACHE_MS } from "../../upstreams/activation/activation-assumptions.js";
import { JobDataError, parseJobData } from "../../jobs/catalog/job-catalog.js";
import { ACTIVATION_ROUTE_JOBS, type ActivationRoutePath } from "./trigger-route-jobs.js";
import type { ActivationQueue } from "../../jobs/queues/activation-queue.js";
import { IdempotencyKeyConflict } from "../../jobs/queues/idempotency-key-conflict.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";

export interface ActivationTrigger {
  readonly queue: ActivationQueue;
  readonly client: ActivationClient;
  /** `activation.offers.key`: every offer must have it (checked here, so a bad body queues nothing). */
  readonly offerKey?: string | undefined;
}

/** Checks of a route beyond its job's schema, with every reason found; a route left out has none. */
type ExtraChecks = (body: Readonly<Record<string, unknown>>, trigger: ActivationTrigger) => string[];
const EXTRA_CHECKS: { readonly [P in ActivationRoutePath]?: ExtraChecks } = {
  "/v1/activation/offers"(body, trigger) {
    if (trigger.offerKey === undefined || !Array.isArray(body.offers)) return [];
    try {
      keyOffers(body.offers, trigger.offerKey);
      return [];
    } catch (error) {
      if (!(error instanceof OfferKeyError)) throw error;
      return [`offers: ${error.message.replace(/; nothing was sent$/, "")}`];
    }
  },
};

/**
 * `POST /v1/activation/offers` `{connection, offers:[...]}` and `POST /v1/activation/shipments`
 * `{connection, shipment:{...}}`: checked against the job catalog and the API's connection list
 * (cached `CONNECTION_LIST_CACHE_MS`; re-read once before an id is refused), then queued.
 */
export function createActivationRoutes(trigger: ActivationTrigger) {
  let cached: { ids: ReadonlySet<string>; at: number } | null = null;

  async function connectionIds(fresh: boolean): Promise<ReadonlySet<string>> {
    if (!fresh && cached !== null && Date.now() - cached.at < CONNECTION_LIST_CACHE_MS) return cached.ids;
    const list = await trigger.client.listConnections();
    cached = { ids: new Set(list.connections.map((connection) => connection.id)), at: Date.now() };
    return cached.ids;
  }

  async function unknownConnection(connection: unknown): Promise<string | null> {
    if (typeof connection !== "string" || connection.trim() === "") return null; // reported by the schema
    if ((await connectionIds(false)).has(connection)) return null;
    // A connection created since the list was cached must not be refused.
    if ((await connectionIds(true)).has(connection)) return null;
    return `connection: '${connection}' is not a channel connection of this Activation account`;
  }

  return {
    /** 202 with the job, or 400 with every reason. */
    async handle(
      path: ActivationRoutePath,
      body: Readonly<Record<string, unknown>>,
      idempotencyKey: string | undefined,
      /** Bounds the wait on Redis (the route then answers 503). */
      inTime: <T>(work: Promise<T>) => Promise<T>,
    ): Promise<{ status: number; body: unknown }> {
      const name = ACTIVATION_ROUTE_JOBS[path].job;
      const problems: string[] = [];
      let data;
      try {
        data = parseJobData(name, body);
      } catch (error) {
        if (!(error instanceof JobDataError)) throw error;
        problems.push(...error.problems);
      }
      problems.push(...(EXTRA_CHECKS[path]?.(body, trigger) ?? []));
      const unknown = await unknownConnection(body.connection);
      if (unknown !== null) problems.push(unknown);
      if (problems.length > 0 || data === undefined) return { status: 400, body: { errors: problems } };
      let job;
      try {
        job = await inTime(trigger.queue.enqueue(name, data, { idempotencyKey }));
      } catch (error) {
        if (error instanceof IdempotencyKeyConflict) return { status: 422, body: { errors: [`Idempotency-Key: ${error.message}`] } };
        throw error;
      }
      return { status: 202, body: enqueuedAnswer(job.ref, job) };
    },
  };
}
