import { openApiRoutes } from "../../server/openapi/openapi-routes.js";
import { defineHttpSurface } from "./http-surface.js";

/** `/openapi.json`: describes the routes registered after it (before them in the table). */
export const openApiSurface = defineHttpSurface({
  name: "openapi",
  deps: () => ({}),
  async register(scope) {
    await scope.register(openApiRoutes);
  },
});
