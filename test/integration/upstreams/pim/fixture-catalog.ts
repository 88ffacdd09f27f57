import { jsonFixture, lastPage, servedFixture, SYNTHETIC } from "./fixture-payloads.js";

export interface FixtureReply {
  readonly status: number;
  readonly body?: string;
  readonly contentType?: string;
}

const COLLECTION = "application/vnd.akeneo.collection+json";

function withoutNextLink(body: string): string {
  const page = JSON.parse(body) as { _links?: Record<string, unknown> };
  delete page._links?.["next"];
  return JSON.stringify(page);
}
const CODE_SYNTAX = /^[A-Za-z0-9_]+$/;
const NOT_FOUND: FixtureReply = { status: 404, body: JSON.stringify(jsonFixture("error_404_not_found.json")) };

/**
 * The catalogue behind the fixture server's REST routes: official payloads for reads, and option
 * and record stores for writes, so that a second upsert of the same code answers 204, not 201.
 */
export function createFixtureCatalog(baseUrl: string) {
  const options = new Map<string, Map<string, unknown>>();
  const records = new Map<string, Set<string>>();
  const fixture = (name: string): FixtureReply => ({ status: 200, body: servedFixture(name, baseUrl) });
  const page = (path: string, items: readonly unknown[]): FixtureReply => ({
    status: 200,
    body: lastPage(baseUrl, `/api/rest/v1/${path}`, items),
  });
  const ce = (name: string, status: number): FixtureReply => ({
    status,
    body: JSON.stringify(jsonFixture(`from-pim-community-dev/${name}`)),
  });

  function get(segments: readonly string[], query: URLSearchParams): FixtureReply {
    const [resource, code, sub, item] = segments;
    const pageNumber = query.get("page");
    const searchAfter = query.get("search_after");
    switch (`${segments.length}:${resource}${sub ? `/${sub}` : ""}`) {
      case "1:attributes":
        // The documented page is page 3 of 4; page 4 is the concept example.
        return pageNumber === "4"
          ? page("attributes?page=4&limit=3", [jsonFixture("attribute_concepts_example_boolean.json")])
          : fixture("attributes_list_response.json");
      case "3:attributes/options":
        if (code === "color") {
          return pageNumber === "4"
            ? fixture("from-pim-community-dev/attribute_options_list_response_with_count.json")
            : fixture("attribute_options_list_response.json");
        }
        if (code === "sku") return ce("error_404_attribute_does_not_support_options.json", 404);
        if (code !== undefined && options.has(code)) return page(`attributes/${code}/options`, optionItems(code));
        return ce("error_404_attribute_not_found.json", 404);
      case "4:attributes/options": {
        const labels = options.get(code ?? "")?.get(item ?? "");
        if (labels !== undefined) return { status: 200, body: JSON.stringify({ code: item, attribute: code, sort_order: 1, labels }) };
        return code === "color" && item === "black" ? fixture("attribute_option_get_response.json") : NOT_FOUND;
      }
      case "1:channels":
        return fixture("channels_list_response.json");
      case "1:locales":
        // The published example is "page 2" with `next` pointing at itself (a documentation
        // slip: a real last page has no `next`). Served as that last page; the repeated link
        // itself is covered by the paging-guard tests.
        return { status: 200, body: withoutNextLink(servedFixture("locales_list_response.json", baseUrl)) };
      case "1:currencies":
        return fixture("currencies_list_response.json");
      case "1:families":
        return page("families", SYNTHETIC.families);
      case "1:measurement-families":
        return fixture("measurement_families_list_response.json");
      case "1:reference-entities":
        return searchAfter === "2x055w=="
          ? page("reference-entities?search_after=2x055w%3D%3D", [SYNTHETIC.materials])
          : fixture("reference_entities_list_response.json");
      case "3:reference-entities/records":
        if (code !== "brands") return NOT_FOUND;
        return searchAfter === "2x088w=="
          ? page("reference-entities/brands/records?search_after=2x088w%3D%3D", [SYNTHETIC.vitra])
          : fixture("reference_entity_records_list_response.json");
      case "4:reference-entities/records":
        return code === "brands" && item === "kartell" ? fixture("reference_entity_record_get_response.json") : NOT_FOUND;
      default:
        return NOT_FOUND;
    }
  }

  function optionItems(attribute: string): unknown[] {
    return [...(options.get(attribute) ?? new Map<string, unknown>())].map(([code, labels]) => ({ code, attribute, labels }));
  }

  /** Per-line statuses as the CE end-to-end tests show them. */
  function patchOptions(attribute: string, contentType: string, body: string): FixtureReply {
    if (contentType !== COLLECTION) return ce("error_415_collection_endpoint_sent_application_json.json", 415);
    const lines = body.split("\n").filter((line) => line.trim() !== "");
    if (lines.length > 100) return ce("error_413_too_many_resources_101_lines.json", 413);
    const stored = options.get(attribute) ?? new Map<string, unknown>();
    options.set(attribute, stored);
    const answers = lines.map((text, index) => {
      const line = index + 1;
      const value = parseJson(text);
      if (value === undefined) return { line, status_code: 400, message: "Invalid json message received" };
      const code = codeOf(value);
      if (code === undefined) return { line, status_code: 422, message: "Code is missing." };
      if (!CODE_SYNTAX.test(code)) {
        return {
          line,
          code,
          status_code: 422,
          message: "Validation failed.",
          errors: [{ property: "code", message: "Option code may contain only letters, numbers and underscores" }],
        };
      }
      const existed = stored.has(code);
      stored.set(code, typeof value === "object" && value !== null && "labels" in value ? value.labels : {});
      return { line, code, status_code: existed ? 204 : 201 };
    });
    return { status: 200, contentType: COLLECTION, body: answers.map((answer) => JSON.stringify(answer)).join("\n") };
  }

  function patchRecords(entity: string, contentType: string, body: string): FixtureReply {
    if (contentType !== "application/json")
      return { status: 415, body: JSON.stringify(jsonFixture("error_415_unsupported_media_type.json")) };
    const items = parseJson(body);
    if (!Array.isArray(items)) return { status: 400, body: JSON.stringify(jsonFixture("error_400_bad_request.json")) };
    if (items.length > 100) return { status: 413, body: JSON.stringify(jsonFixture("error_413_too_many_resources.json")) };
    const stored = records.get(entity) ?? new Set<string>();
    records.set(entity, stored);
    const answers = items.map((value: unknown) => {
      const code = codeOf(value) ?? "";
      if (!CODE_SYNTAX.test(code)) return { code, status_code: 422, message: "Validation failed." };
      const existed = stored.has(code);
      stored.add(code);
      return { code, status_code: existed ? 204 : 201 };
    });
    return { status: 200, body: JSON.stringify(answers) };
  }

  return {
    options,
    handle(method: string, path: string, query: URLSearchParams, contentType: string, body: string): FixtureReply {
      const segments = path
        .split("/")
        .filter((segment) => segment !== "")
        .map((segment) => decodeURIComponent(segment));
      const [resource, code, sub] = segments;
      if (method === "GET") return get(segments, query);
      if (method === "PATCH" && segments.length === 3 && resource === "attributes" && sub === "options" && code)
        return patchOptions(code, contentType, body);
      if (method === "PATCH" && segments.length === 3 && resource === "reference-entities" && sub === "records" && code)
        return patchRecords(code, contentType, body);
      return NOT_FOUND;
    },
  };
}

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("code" in value)) return undefined;
  return typeof value.code === "string" ? value.code : undefined;
}
