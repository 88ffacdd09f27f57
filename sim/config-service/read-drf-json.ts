/** A JSON request body as DRF's JSONParser takes it: 415 for another media type, 400 if malformed. */
import { contentTypeOf } from "../shared/sim-request.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";

import { detailReply } from "./drf-errors.js";

export function readDrfJson(
  request: SimRequest,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reply: SimReply } {
  const contentType = contentTypeOf(request);
  if (contentType !== "application/json") {
    return { ok: false, reply: detailReply(415, `Unsupported media type "${contentType ?? ""}" in request.`) };
  }
  const text = request.body.toString("utf8");
  // DRF reads an empty body as empty data, which then fails (or passes) validation.
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reply: detailReply(400, `JSON parse error - ${error instanceof Error ? error.message : String(error)}`) };
  }
}
