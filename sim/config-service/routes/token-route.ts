/** `POST /api/v1/auth/token/`: no token needed to get one. */
import type { ServiceAuth } from "../service-auth.js";
import type { ServiceRouter } from "../service-route.js";

export function addTokenRoute(router: ServiceRouter, auth: ServiceAuth): void {
  router.add("POST", "/api/v1/auth/token/", { public: true, handle: (request) => auth.handleTokenRequest(request) });
}
