import type { FastifyRequest } from "fastify";

/**
 * Why a state-changing request looks sent by another site's page (a logged-in admin's browser
 * made to replay jobs), or null. Browsers send `Sec-Fetch-Site`; older ones at least `Origin`.
 * Scripts send neither and pass.
 */
export function crossSiteProblem(request: FastifyRequest): string | null {
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string") return site === "same-origin" || site === "none" ? null : `Sec-Fetch-Site is '${site}'`;
  // Only browsers without Sec-Fetch-Site get here. Behind a TLS-terminating proxy the scheme seen
  // here is http while the page's is https: hosts are compared, not schemes.
  const origin = request.headers.origin;
  if (typeof origin !== "string") return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin '${origin}' is not a URL`;
  }
  return originHost === request.headers.host ? null : `Origin '${origin}' is not this server`;
}
