/**
 * Option writes (reference §5): `PATCH /attributes/{code}/options/{option}` (JSON, 201/204 with an
 * empty body and a Location header) and `PATCH /attributes/{code}/options` (one JSON object per
 * line, `application/vnd.akeneo.collection+json`, at most 100 lines, a status per line inside an
 * HTTP 200). Both count against the option-write budget, enforced by the simulator.
 */
import { z } from "zod";

import { emptyReply, textReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import { contentTypeOf } from "../../shared/sim-request.js";
import type { SimReply, SimRequest } from "../../shared/sim-request.js";
import type { PimCatalogAttribute } from "../../catalog/pim-catalog-schema.js";
import { akeneoError, INVALID_JSON_MESSAGE } from "../akeneo-errors.js";
import { upsertAttributeOption } from "../option-upsert.js";
import { API_PREFIX } from "../pim-route.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import { findAttribute, supportsOptions } from "../pim-state.js";
import type { PimState } from "../pim-state.js";
import { optionHref } from "./attribute-option-read-routes.js";
import { optionEventData } from "../pim-event-emitter.js";

const COLLECTION_TYPE = "application/vnd.akeneo.collection+json";
const MAX_LINES = 100;
const MAX_LINE_LENGTH = 1_000_000;
const SINGLE_ANCHOR = "patch_attributes__attribute_code__options__code_";
const COLLECTION_ANCHOR = "patch_attributes__attribute_code__options";

const jsonObjectSchema = z.record(z.string(), z.unknown());

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = jsonObjectSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function notSupportingOptions(attribute: PimCatalogAttribute) {
  return {
    property: "attribute",
    message: `Attribute "${attribute.code}" does not support options. Only attributes of type "pim_catalog_simpleselect", "pim_catalog_multiselect" support options`,
  };
}

export function addAttributeOptionWriteRoutes(router: PimRouter, { state, events }: PimRouteContext): void {
  const changed: OptionChanged = (attribute, option, status) =>
    events.emit(`attribute-option.${status === 201 ? "created" : "updated"}`, optionEventData(attribute, option));
  router.add("PATCH", `${API_PREFIX}/attributes/:code/options/:option`, {
    optionWrite: true,
    handle: (request, params) => patchOne(state, request, paramOf(params, "code"), paramOf(params, "option"), changed),
  });
  router.add("PATCH", `${API_PREFIX}/attributes/:code/options`, {
    optionWrite: true,
    alsoAccepts: [COLLECTION_TYPE],
    handle: (request, params) => patchMany(state, request, paramOf(params, "code"), changed),
  });
}

type OptionChanged = (attribute: string, option: string, status: 201 | 204) => void;

function patchOne(state: PimState, request: SimRequest, attributeCode: string, optionCode: string, changed: OptionChanged): SimReply {
  const contentType = contentTypeOf(request);
  if (contentType === undefined) {
    return akeneoError(415, "The 'Content-type' header is missing. 'application/json' has to specified as value.");
  }
  if (contentType !== "application/json") {
    return akeneoError(415, `"${contentType}" in "Content-Type" header is not valid. Only "application/json" is allowed.`);
  }
  const attribute = findAttribute(state, attributeCode);
  if (attribute === undefined) return akeneoError(404, `Attribute "${attributeCode}" does not exist.`);
  const body = parseJsonObject(request.body.toString("utf8"));
  if (body === undefined) return akeneoError(400, INVALID_JSON_MESSAGE);
  if (!supportsOptions(attribute)) return akeneoError(422, "Validation failed.", { errors: [notSupportingOptions(attribute)] });
  const outcome = upsertAttributeOption(state, attribute, optionCode, body, SINGLE_ANCHOR);
  if (!outcome.ok) {
    const { ok: _ok, status, message, ...extra } = outcome;
    return akeneoError(status, message, extra);
  }
  changed(attribute.code, outcome.code, outcome.status);
  return emptyReply(outcome.status, { location: optionHref(request.origin, attribute.code, outcome.code) });
}

function patchMany(state: PimState, request: SimRequest, attributeCode: string, changed: OptionChanged): SimReply {
  const contentType = contentTypeOf(request);
  if (contentType === undefined) {
    return akeneoError(415, `The 'Content-type' header is missing. '${COLLECTION_TYPE}' has to specified as value.`);
  }
  if (contentType !== COLLECTION_TYPE) {
    return akeneoError(415, `"${contentType}" in "Content-Type" header is not valid. Only "${COLLECTION_TYPE}" is allowed.`);
  }
  const attribute = findAttribute(state, attributeCode);
  if (attribute === undefined) return akeneoError(404, `Attribute "${attributeCode}" does not exist.`);
  const lines = request.body.toString("utf8").split("\n");
  // A body ending with a newline (PHP_EOL-joined) has no extra, empty line.
  if (lines[lines.length - 1]?.trim() === "") lines.pop();
  if (lines.length > MAX_LINES) return akeneoError(413, `Too many resources to process, ${MAX_LINES} is the maximum allowed.`);

  const results = lines.map((line, index): Record<string, unknown> => {
    const number = index + 1;
    if (line.length > MAX_LINE_LENGTH) return { line: number, status_code: 413, message: "Line is too long." };
    const body = parseJsonObject(line);
    if (body === undefined) return { line: number, status_code: 400, message: INVALID_JSON_MESSAGE };
    const code = body["code"];
    if (typeof code !== "string" || code.trim() === "") return { line: number, status_code: 422, message: "Code is missing." };
    if (!supportsOptions(attribute)) {
      return { line: number, code, status_code: 422, message: "Validation failed.", errors: [notSupportingOptions(attribute)] };
    }
    const outcome = upsertAttributeOption(state, attribute, code, body, COLLECTION_ANCHOR);
    if (outcome.ok) {
      changed(attribute.code, outcome.code, outcome.status);
      return { line: number, code, status_code: outcome.status };
    }
    const { ok: _ok, status, ...rest } = outcome;
    return { line: number, code, status_code: status, ...rest };
  });
  return textReply(200, COLLECTION_TYPE, results.map((result) => JSON.stringify(result)).join("\n"));
}
