import { HttpError } from "./http-error.js";

/**
 * A 3xx answer as an error. Permanent: pim-sync never follows a redirect (the credentials would
 * go wherever the Location says), so the same request gets the same answer until someone fixes
 * the configured URL or the proxy; retrying only delays saying so. The message names the status
 * and the Location's origin only: its userinfo, path and query may carry credentials or tokens.
 */
export function redirectError(
  request: { readonly upstream: string; readonly method: string; readonly url: string },
  status: number,
  location: string | string[] | undefined,
): HttpError {
  const target = locationOrigin(Array.isArray(location) ? location[0] : location, request.url);
  return new HttpError(
    { ...request, code: "HTTP_REDIRECT", status, transient: false },
    `${status} redirect to ${target}, not followed: not a success, nothing was done (pim-sync never follows redirects, so credentials stay on the configured origin; check the configured URL, e.g. http vs https, or the proxy in front of the ${request.upstream})`,
  );
}

function locationOrigin(location: string | undefined, requestUrl: string): string {
  if (location === undefined || location.trim() === "") return "(no Location header)";
  try {
    const origin = new URL(location, requestUrl).origin;
    return origin === "null" ? "(a Location without an origin)" : origin;
  } catch {
    return "(an unreadable Location header)";
  }
}
