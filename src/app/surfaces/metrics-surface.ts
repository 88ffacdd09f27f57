import { metricsRoutes } from "../../server/metrics/metrics-routes.js";
import { defineHttpSurface } from "./http-surface.js";

/** `/metrics`: Prometheus' scrape, with `server.metrics_token` when one is set. */
export const metricsSurface = defineHttpSurface({
  name: "metrics",
  deps: (parts) =>
    parts.metrics ? { registry: parts.metrics.registry, token: parts.listen.metrics_token, gate: parts.gate("metrics") } : null,
  async register(scope, deps) {
    await scope.register(metricsRoutes, deps);
  },
});
