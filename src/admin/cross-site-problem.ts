import type { FastifyRequest } from "fastify";

/**
 * Why a state-changing request looks sent by another site's page (a logged-in admin's browser
 * made to replay jobs), or null. Browsers send `Sec-Fetch-Site`; older ones at least `Origin`.
 * Scripts send neither and pass.
 */
export function crossSiteProblem(request: FastifyRequest): string | null {
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") return `Sec-Fetch-Site is '${site}'`;
  const origin = request.headers.origin;
  if (typeof origin === "string" && origin !== `${request.protocol}://${request.headers.host ?? ""}`) return `Origin '${origin}' is not this server`;
  return null;
}
