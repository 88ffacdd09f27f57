import type { FastifySchema } from "fastify";
import type { ActivationJobName, ProjectJobName } from "../../jobs/catalog/job-catalog.js";
import {
  activationOffersRouteSchema,
  activationShipmentsRouteSchema,
  addOptionsRouteSchema,
  syncRouteSchema,
} from "./trigger-route-schemas.js";

/** A trigger route and the one job a valid request queues: listed here, never inferred. */
export interface TriggerRouteJob<N extends ProjectJobName | ActivationJobName> {
  readonly job: N;
  readonly schema: FastifySchema;
}

/**
 * Every `POST /v1/...` route that queues a job, and which job (routes of other queues are not
 * in it). A new route gets its line here, with a handler of its own in trigger-routes.ts (project
 * jobs) or its checks in activation-routes.ts (Activation jobs); no route falls through to another's job.
 */
export const TRIGGER_ROUTE_JOBS = {
  "/v1/sync": { job: "sync.run", schema: syncRouteSchema },
  "/v1/add-options": { job: "options.add", schema: addOptionsRouteSchema },
} as const satisfies Readonly<Record<string, TriggerRouteJob<ProjectJobName>>>;

/** The Activation routes (served when the config has `activation`), and their jobs. */
export const ACTIVATION_ROUTE_JOBS = {
  "/v1/activation/offers": { job: "activation.offers.put", schema: activationOffersRouteSchema },
  "/v1/activation/shipments": { job: "activation.shipment.update", schema: activationShipmentsRouteSchema },
} as const satisfies Readonly<Record<string, TriggerRouteJob<ActivationJobName>>>;

export type ActivationRoutePath = keyof typeof ACTIVATION_ROUTE_JOBS;
