import type { FastifyInstance } from "fastify";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";

/**
 * A small square with a "p", drawn rather than shipped as a binary file: `tsc` copies no assets
 * into `dist/`. Browsers ask for `/favicon.ico` on every page they open; a 404 there is an
 * error in the console of every console and dashboard page.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57a4"/>' +
  '<text x="8" y="12.5" font-family="sans-serif" font-size="12" font-weight="700" text-anchor="middle" fill="#fff">p</text></svg>';

/** `GET /favicon.ico`: the icon, as SVG (every browser the console supports reads it), without credentials. */
export async function faviconRoute(app: FastifyInstance): Promise<void> {
  app.get("/favicon.ico", { schema: HIDDEN_ROUTE }, async (_request, reply) =>
    reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON_SVG),
  );
}
