import { healthRoutes } from "../../server/http/health-routes.js";
import { defineHttpSurface } from "./http-surface.js";

/** `/healthz`, `/readyz` (and `/health`): answered from the start, Redis away or not. */
export const healthSurface = defineHttpSurface({
  name: "health",
  deps: (parts) => ({ notReadyReasons: () => parts.notReadyReasons() }),
  async register(scope, deps) {
    await scope.register(healthRoutes, deps);
  },
});
