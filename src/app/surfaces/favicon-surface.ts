import { faviconRoute } from "../../server/http/favicon-route.js";
import { defineHttpSurface } from "./http-surface.js";

/** `/favicon.ico`: a browser asks for it with every page of the dashboard and the console. */
export const faviconSurface = defineHttpSurface({
  name: "favicon",
  deps: () => ({}),
  async register(scope) {
    await scope.register(faviconRoute);
  },
});
