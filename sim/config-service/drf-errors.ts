/**
 * The configuration service speaks Django REST Framework: `{"detail": "..."}` for request-level
 * errors and `{"<field>": ["message", ...]}` for validation errors.
 */
import { jsonReply } from "../shared/replies.js";
import type { SimReply } from "../shared/sim-request.js";

export type FieldErrors = Readonly<Record<string, readonly string[]>>;

export function detailReply(status: number, detail: string, headers: Readonly<Record<string, string>> = {}): SimReply {
  return jsonReply(status, { detail }, headers);
}

export function fieldErrorsReply(errors: FieldErrors): SimReply {
  return jsonReply(400, errors);
}

export const NOT_FOUND_DETAIL = "Not found.";

/** The body of a fault injected without one: what DRF would say for that status. */
export function defaultDrfFaultBody(status: number): unknown {
  if (status === 429) return { detail: "Request was throttled." };
  if (status === 404) return { detail: NOT_FOUND_DETAIL };
  if (status >= 500) return { detail: "A server error occurred." };
  return { detail: `Simulated error ${status}.` };
}
