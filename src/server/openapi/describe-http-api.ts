import swagger from "@fastify/swagger";
import type { FastifyInstance, RouteOptions } from "fastify";
import { OPTIONAL_BODY_EXTENSION } from "./route-schema.js";
import { SECURITY_SCHEMES } from "./security-schemes.js";

const TAGS = [
  { name: "health", description: "Liveness and readiness, for orchestrators: public." },
  { name: "trigger", description: "The way in for PIM-side callers: queue syncs, add-options and Activation jobs, follow them." },
  { name: "events", description: "PIM events from the Akeneo Event Platform: signed by the platform, not by a token." },
  { name: "admin", description: "The admin API under /admin/api (the dashboard's pages and bull-board's own API are not described here)." },
  { name: "metrics", description: "Prometheus metrics." },
  { name: "description", description: "This document." },
];

/** Routes registered without a description: a route must describe its answers, or be hidden on purpose. */
export class UndescribedRoutesError extends Error {
  constructor(readonly routes: readonly string[]) {
    super(`routes without a response schema (describe them with routeSchema() or hide them with HIDDEN_ROUTE): ${routes.join(", ")}`);
    this.name = "UndescribedRoutesError";
  }
}

type Operation = Record<string, unknown> & { requestBody?: Record<string, unknown> };

/** Operations whose handler reads a missing body as `{}` say so (fastify's plugin marks every body required). */
function markOptionalBodies(document: Record<string, unknown>): Record<string, unknown> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (operation[OPTIONAL_BODY_EXTENSION] !== true) continue;
      delete operation[OPTIONAL_BODY_EXTENSION];
      if (operation.requestBody) operation.requestBody.required = false;
    }
  }
  return document;
}

/**
 * The OpenAPI 3.1 description of every route the app serves, built by @fastify/swagger from the
 * routes' own schemas (`app.swagger()`; served by openapi-routes.ts). Call on the fresh app,
 * before any route: every route registered after must carry a response schema or be hidden, or
 * the app does not start (UndescribedRoutesError).
 */
export function describeHttpApi(app: FastifyInstance, info: { readonly version: string }): void {
  const routes: RouteOptions[] = [];
  // Read once every route's own hooks have run (bull-board's routes are hidden by a hook of their scope).
  app.addHook("onRoute", (route) => void routes.push(route));
  app.addHook("onReady", async () => {
    const undescribed = routes
      .filter((route) => route.schema?.hide !== true && route.schema?.response === undefined)
      .map((route) => `${[route.method].flat().join("|")} ${route.url}`);
    if (undescribed.length > 0) throw new UndescribedRoutesError(undescribed);
  });

  void app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "pim-sync worker",
        version: info.version,
        description:
          "The worker's HTTP API: health checks, trigger routes and job status, the admin API, metrics. Generated from the routes' own schemas.",
      },
      tags: TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transformObject: (documentObject) =>
      "openapiObject" in documentObject
        ? markOptionalBodies(documentObject.openapiObject as Record<string, unknown>)
        : documentObject.swaggerObject,
  });
}
