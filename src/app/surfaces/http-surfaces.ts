import { adminSurface } from "./admin-surface.js";
import { faviconSurface } from "./favicon-surface.js";
import { healthSurface } from "./health-surface.js";
import type { HttpSurface } from "./http-surface.js";
import { metricsSurface } from "./metrics-surface.js";
import { openApiSurface } from "./openapi-surface.js";
import { pimEventsSurface } from "./pim-events-surface.js";
import { triggerSurface } from "./trigger-surface.js";

/**
 * Everything the worker's HTTP server serves, one entry each (http-surface.ts), registered in
 * this order by serve-http-surfaces.ts: the OpenAPI description before the routes it describes,
 * and the gated surfaces together in one scope behind the starting gate. Nothing else registers
 * a route on the worker's server.
 */
export const HTTP_SURFACES: readonly HttpSurface[] = [
  healthSurface,
  faviconSurface,
  openApiSurface,
  metricsSurface,
  pimEventsSurface,
  adminSurface,
  triggerSurface,
];
