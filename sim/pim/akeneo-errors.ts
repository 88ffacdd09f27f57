/**
 * Akeneo's error dialect: `{code, message}` plus, depending on the error, `errors[]` or a
 * documentation link (reference §8, and the error_*.json fixtures).
 */
import { jsonReply } from "../shared/replies.js";
import type { SimReply } from "../shared/sim-request.js";

export interface ValidationError {
  readonly property: string;
  readonly message: string;
}

export function akeneoError(
  status: number,
  message: string,
  extra: Readonly<Record<string, unknown>> = {},
  headers: Readonly<Record<string, string>> = {},
): SimReply {
  return jsonReply(status, { code: status, message, ...extra }, headers);
}

export function validationFailed(errors: readonly ValidationError[]): SimReply {
  return akeneoError(422, "Validation failed.", { errors });
}

/** The same 429 for every budget, with the `Retry-After` the docs show (§3). */
export function rateLimited(): SimReply {
  return akeneoError(429, "You have exceeded the limit of API requests per second.", {}, { "retry-after": "1" });
}

export const INVALID_JSON_MESSAGE = "Invalid json message received";

/** `_links.documentation` as the PIM attaches it to format errors; the anchor names the endpoint. */
export function documentationLink(anchor: string): { documentation: { href: string } } {
  return { documentation: { href: `http://api.akeneo.com/api-reference.html#${anchor}` } };
}

/** The body of a fault injected without one: what the PIM would say for that status. */
export function defaultAkeneoFaultBody(status: number): unknown {
  if (status === 429) return { code: 429, message: "You have exceeded the limit of API requests per second." };
  if (status >= 500) return { code: status, message: "Internal Server Error" };
  return { code: status, message: `Simulated error ${status}` };
}
