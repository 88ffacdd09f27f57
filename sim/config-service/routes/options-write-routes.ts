/**
 * `PATCH …/{id}/update-options/` and `PATCH …/{id}/add-options/` (reference §2.3, §2.4). Both
 * answer the collection summary `{id, name, project}`, never its options.
 */
import { jsonReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import type { SimReply, SimRequest } from "../../shared/sim-request.js";
import type { LiveCollection } from "../collection-store.js";
import { detailReply, fieldErrorsReply, NOT_FOUND_DETAIL } from "../drf-errors.js";
import { parseAddOptions, parseUpdateOptions } from "../options-payload.js";
import type { UpdateOptionsBody } from "../options-payload.js";
import { planPimOptionWrite } from "../pim-option-writer.js";
import { readDrfJson } from "../read-drf-json.js";
import { COLLECTIONS_PREFIX } from "../service-route.js";
import type { ServiceRouteContext, ServiceRouter } from "../service-route.js";

function summary(collection: LiveCollection): SimReply {
  return jsonReply(200, { id: collection.id, name: collection.name, project: collection.project });
}

function collectionOf(context: ServiceRouteContext, rawId: string): LiveCollection | undefined {
  return /^\d+$/.test(rawId) ? context.store.get(Number(rawId)) : undefined;
}

export function addOptionsWriteRoutes(router: ServiceRouter, context: ServiceRouteContext): void {
  router.add("PATCH", `${COLLECTIONS_PREFIX}/:id/update-options/`, {
    handle: (request, params) => updateOptions(context, request, paramOf(params, "id")),
  });
  router.add("PATCH", `${COLLECTIONS_PREFIX}/:id/add-options/`, {
    handle: (request, params) => addOptions(context, request, paramOf(params, "id")),
  });
}

function updateOptions(context: ServiceRouteContext, request: SimRequest, rawId: string): SimReply {
  const collection = collectionOf(context, rawId);
  if (collection === undefined) return detailReply(404, NOT_FOUND_DETAIL);
  const json = readDrfJson(request);
  if (!json.ok) return json.reply;
  const parsed = parseUpdateOptions(json.value);
  if (!parsed.ok) return fieldErrorsReply(parsed.errors);
  const before = [...collection.options.keys()];
  applyUpdate(collection, parsed.value);
  const removed = before.filter((name) => !collection.options.has(name));
  context.store.recordWrite(collection.id, "update-options", json.value, removed);
  return summary(collection);
}

/**
 * The order of operations is not documented upstream. Chosen here, in this one place:
 * `delete_all` first, then `delete_options` (names not present are ignored), then the upserts,
 * each of which replaces the option's whole label map. So `delete_all` + upserts replaces the
 * collection, and deleting and upserting one name in the same request keeps the option.
 */
function applyUpdate(collection: LiveCollection, body: UpdateOptionsBody): void {
  if (body.delete_all === true) collection.options.clear();
  for (const name of body.delete_options ?? []) collection.options.delete(name);
  for (const option of body.upsert_options ?? []) collection.options.set(option.name, { ...option.label });
}

function addOptions(context: ServiceRouteContext, request: SimRequest, rawId: string): SimReply {
  const collection = collectionOf(context, rawId);
  if (collection === undefined) return detailReply(404, NOT_FOUND_DETAIL);
  const json = readDrfJson(request);
  if (!json.ok) return json.reply;
  const parsed = parseAddOptions(json.value);
  if (!parsed.ok) return fieldErrorsReply(parsed.errors);
  const existing = parsed.value.filter((option) => collection.options.has(option.name));
  if (existing.length > 0) {
    // add-options only adds: changing an option is update-options' job.
    return fieldErrorsReply({
      upsert_options: existing.map((option) => `Option "${option.name}" already exists in collection "${collection.name}".`),
    });
  }
  const pimWrite = context.pim === undefined ? undefined : planPimOptionWrite(context.pim, collection.name, parsed.value);
  if (pimWrite !== undefined && !pimWrite.ok) return fieldErrorsReply({ non_field_errors: [pimWrite.message] });
  for (const option of parsed.value) collection.options.set(option.name, { ...option.label });
  pimWrite?.apply();
  context.store.recordWrite(collection.id, "add-options", json.value, []);
  return summary(collection);
}
