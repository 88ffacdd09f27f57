/**
 * `GET /api/v1/options_collections/options_collections?page=&limit=&project=` with DRF's page
 * number pagination: `{count, next, previous, results}`, absolute `next`/`previous` built from the
 * request URL, 404 "Invalid page." past the end, an invalid or missing `limit` falling back to the
 * default and a larger one capped (reference §1.3, §2.2).
 */
import { jsonReply } from "../../shared/replies.js";
import type { SimReply, SimRequest } from "../../shared/sim-request.js";
import { detailReply, fieldErrorsReply } from "../drf-errors.js";
import { COLLECTIONS_PREFIX } from "../service-route.js";
import type { ServiceRouteContext, ServiceRouter } from "../service-route.js";

const DEFAULT_LIMIT = 25;

export function addListCollectionsRoute(router: ServiceRouter, context: ServiceRouteContext): void {
  const route = { handle: (request: SimRequest) => listCollections(request, context) };
  // The service's own client omits the trailing slash; DRF routers usually add one. Both work.
  router.add("GET", `${COLLECTIONS_PREFIX}/options_collections`, route);
  router.add("GET", `${COLLECTIONS_PREFIX}/options_collections/`, route);
}

function listCollections(request: SimRequest, { store, pageSizeMax, ignoreProjectFilter }: ServiceRouteContext): SimReply {
  const rawProject = request.query.get("project");
  let project: number | undefined;
  if (rawProject !== null && rawProject !== "") {
    project = /^\d+$/.test(rawProject) ? Number(rawProject) : undefined;
    // django-filter's answer for an id that is not one of the choices.
    if (project === undefined || !store.projects.has(project)) {
      return fieldErrorsReply({ project: ["Select a valid choice. That choice is not one of the available choices."] });
    }
  }
  const limit = Math.min(positiveInteger(request.query.get("limit")) ?? DEFAULT_LIMIT, pageSizeMax);
  const rawPage = request.query.get("page");
  const page = rawPage === null ? 1 : positiveInteger(rawPage);
  const all = store.list(ignoreProjectFilter ? undefined : project);
  const pageCount = Math.max(1, Math.ceil(all.length / limit));
  if (page === undefined || page > pageCount) return detailReply(404, "Invalid page.");

  const link = (target: number): string => {
    const url = new URL(`${request.origin}${request.path}`);
    for (const [key, value] of request.query) url.searchParams.append(key, value);
    // Like DRF: the link to page 1 has no page parameter at all.
    if (target === 1) url.searchParams.delete("page");
    else url.searchParams.set("page", String(target));
    return url.toString();
  };
  const start = (page - 1) * limit;
  return jsonReply(200, {
    count: all.length,
    next: page < pageCount ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: all.slice(start, start + limit).map(({ id, name, project: owner }) => ({ id, name, project: owner })),
  });
}

function positiveInteger(raw: string | null): number | undefined {
  if (raw === null || !/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}
