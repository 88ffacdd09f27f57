/**
 * Record writes (reference §7): `PATCH /reference-entities/{code}/records/{record}` (201/204,
 * empty body, Location) and `PATCH /reference-entities/{code}/records` — a JSON array sent as
 * application/json, not the line format — answered with a status per record.
 */
import { z } from "zod";

import { emptyReply, jsonReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import { contentTypeOf } from "../../shared/sim-request.js";
import type { SimReply, SimRequest } from "../../shared/sim-request.js";
import { akeneoError, INVALID_JSON_MESSAGE } from "../akeneo-errors.js";
import { API_PREFIX } from "../pim-route.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import type { PimState } from "../pim-state.js";
import { upsertRecord } from "../record-upsert.js";
import { recordEventData } from "../pim-event-emitter.js";

const MAX_RECORDS = 100;
const jsonObjectSchema = z.record(z.string(), z.unknown());

function readJson(request: SimRequest): { ok: true; value: unknown } | { ok: false; reply: SimReply } {
  const contentType = contentTypeOf(request);
  if (contentType === undefined) {
    return { ok: false, reply: akeneoError(415, "The 'Content-type' header is missing. 'application/json' has to specified as value.") };
  }
  if (contentType !== "application/json") {
    return {
      ok: false,
      reply: akeneoError(415, `"${contentType}" in "Content-Type" header is not valid. Only "application/json" is allowed.`),
    };
  }
  try {
    return { ok: true, value: JSON.parse(request.body.toString("utf8")) };
  } catch {
    return { ok: false, reply: akeneoError(400, INVALID_JSON_MESSAGE) };
  }
}

function unknownEntity(state: PimState, code: string): SimReply | undefined {
  if (state.reference_entities.some((entity) => entity.code === code)) return undefined;
  return akeneoError(404, `Reference entity "${code}" does not exist.`);
}

export function addRecordWriteRoutes(router: PimRouter, { state, events }: PimRouteContext): void {
  const changed = (entity: string, record: string, status: number): void =>
    events.emit(`reference-entity-record.${status === 201 ? "created" : "updated"}`, recordEventData(entity, record));
  router.add("PATCH", `${API_PREFIX}/reference-entities/:code/records/:record`, {
    handle(request, params) {
      const entityCode = paramOf(params, "code");
      const json = readJson(request);
      if (!json.ok) return json.reply;
      const missing = unknownEntity(state, entityCode);
      if (missing !== undefined) return missing;
      const body = jsonObjectSchema.safeParse(json.value);
      if (!body.success) return akeneoError(400, INVALID_JSON_MESSAGE);
      const outcome = upsertRecord(state, entityCode, paramOf(params, "record"), body.data);
      if (!outcome.ok) {
        const { ok: _ok, status, message, ...extra } = outcome;
        return akeneoError(status, message, extra);
      }
      changed(entityCode, outcome.code, outcome.status);
      const location = `${request.origin}${API_PREFIX}/reference-entities/${encodeURIComponent(entityCode)}/records/${encodeURIComponent(outcome.code)}`;
      return emptyReply(outcome.status, { location });
    },
  });

  router.add("PATCH", `${API_PREFIX}/reference-entities/:code/records`, {
    handle(request, params) {
      const entityCode = paramOf(params, "code");
      const json = readJson(request);
      if (!json.ok) return json.reply;
      const missing = unknownEntity(state, entityCode);
      if (missing !== undefined) return missing;
      if (!Array.isArray(json.value)) return akeneoError(400, INVALID_JSON_MESSAGE);
      if (json.value.length > MAX_RECORDS) {
        return akeneoError(413, `Too many resources to process, ${MAX_RECORDS} is the maximum allowed.`);
      }
      const results = json.value.map((item: unknown): Record<string, unknown> => {
        const body = jsonObjectSchema.safeParse(item);
        if (!body.success) return { status_code: 400, message: INVALID_JSON_MESSAGE };
        const code = body.data["code"];
        if (typeof code !== "string" || code.trim() === "") return { status_code: 422, message: "Code is missing." };
        const outcome = upsertRecord(state, entityCode, code, body.data);
        if (outcome.ok) {
          changed(entityCode, outcome.code, outcome.status);
          return { code, status_code: outcome.status };
        }
        const { ok: _ok, status, ...rest } = outcome;
        return { code, status_code: status, ...rest };
      });
      return jsonReply(200, results);
    },
  });
}
