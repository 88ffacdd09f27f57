/**
 * Upsert of one attribute option, shared by the single and the collection PATCH (reference §5).
 * Checks run in the PIM's order: format errors (unknown property, code or attribute mismatch,
 * wrong types) first, then validation (code syntax, locales, lengths), and nothing is written
 * unless everything passes. Labels merge key by key; null or "" removes a label.
 */
import { z } from "zod";

import type { PimCatalogAttribute } from "../catalog/pim-catalog-schema.js";

import { documentationLink } from "./akeneo-errors.js";
import type { ValidationError } from "./akeneo-errors.js";
import { localeStatus, optionsOf, sameCode } from "./pim-state.js";
import type { PimState } from "./pim-state.js";

export type OptionUpsertOutcome =
  | { readonly ok: true; readonly status: 201 | 204; readonly code: string }
  | {
      readonly ok: false;
      readonly status: 422;
      readonly message: string;
      readonly errors?: readonly ValidationError[];
      readonly _links?: ReturnType<typeof documentationLink>;
    };

const ALLOWED_PROPERTIES = new Set(["code", "attribute", "sort_order", "labels"]);
const CODE_SYNTAX = /^[A-Za-z0-9_]+$/;
const MAX_LABEL_LENGTH = 255;
const labelsSchema = z.record(z.string(), z.string().nullable());

/** JSON type names as PHP reports them in format errors. */
function phpType(value: unknown): string {
  if (value === null) return "NULL";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "double";
  return typeof value === "object" ? "array" : typeof value;
}

/**
 * `code` is the option code the request is about: the URL's for a single PATCH, the line's for a
 * collection PATCH. `anchor` names the endpoint in documentation links.
 */
export function upsertAttributeOption(
  state: PimState,
  attribute: PimCatalogAttribute,
  code: string,
  body: Readonly<Record<string, unknown>>,
  anchor: string,
): OptionUpsertOutcome {
  const formatError = (message: string): OptionUpsertOutcome => ({ ok: false, status: 422, message, _links: documentationLink(anchor) });

  for (const property of Object.keys(body)) {
    if (!ALLOWED_PROPERTIES.has(property)) {
      return formatError(`Property "${property}" does not exist. Check the expected format on the API documentation.`);
    }
  }
  if ("code" in body && body["code"] !== code) {
    return {
      ok: false,
      status: 422,
      message: `The option code "${String(body["code"])}" provided in the request body must match the option code "${code}" provided in the url.`,
    };
  }
  if ("attribute" in body && body["attribute"] !== attribute.code) {
    return {
      ok: false,
      status: 422,
      message: `The attribute code "${String(body["attribute"])}" provided in the request body must match the attribute code "${attribute.code}" provided in the url.`,
    };
  }
  const sortOrder = body["sort_order"];
  if (sortOrder !== undefined && (typeof sortOrder !== "number" || !Number.isInteger(sortOrder))) {
    return formatError(
      `Property "sort_order" expects an integer as data, "${phpType(sortOrder)}" given. Check the expected format on the API documentation.`,
    );
  }
  const rawLabels = body["labels"];
  let labels: Record<string, string | null> = {};
  if (rawLabels !== undefined) {
    // Rule 3 of PATCH: an object stays an object; `labels: null` is a format error (reference §0).
    if (rawLabels === null || typeof rawLabels !== "object" || Array.isArray(rawLabels)) {
      return formatError(
        `Property "labels" expects an array as data, "${phpType(rawLabels)}" given. Check the expected format on the API documentation.`,
      );
    }
    const parsed = labelsSchema.safeParse(rawLabels);
    if (!parsed.success) {
      return formatError('Property "labels" expects an array of strings as data. Check the expected format on the API documentation.');
    }
    labels = parsed.data;
  }

  const errors: ValidationError[] = [];
  if (!CODE_SYNTAX.test(code)) errors.push({ property: "code", message: "Option code may contain only letters, numbers and underscores" });
  if (sortOrder !== undefined && sortOrder < 0)
    errors.push({ property: "sort_order", message: "This value should be greater than or equal to 0." });
  for (const [locale, text] of Object.entries(labels)) {
    // Labels must use existing, activated locales: `en-US` fails here (reference §9).
    if (localeStatus(state, locale) !== "enabled") errors.push({ property: "labels", message: `The locale "${locale}" does not exist.` });
    if (text !== null && text.length > MAX_LABEL_LENGTH) {
      errors.push({ property: "labels", message: `This value is too long. It should have ${MAX_LABEL_LENGTH} characters or less.` });
    }
  }
  if (errors.length > 0) return { ok: false, status: 422, message: "Validation failed.", errors };

  const options = optionsOf(state, attribute.code);
  const existing = options.find((option) => sameCode(option.code, code));
  if (existing !== undefined) {
    if (sortOrder !== undefined) existing.sort_order = sortOrder;
    existing.labels = mergeLabels(existing.labels, labels);
    return { ok: true, status: 204, code: existing.code };
  }
  // Without a sort_order the PIM puts a new option after the others (the CE test gets 21 after 20).
  const nextSortOrder = options.reduce((max, option) => Math.max(max, option.sort_order), 0) + 1;
  options.push({ code, sort_order: sortOrder ?? nextSortOrder, labels: mergeLabels({}, labels) });
  return { ok: true, status: 201, code };
}

type Labels = Record<string, string | null>;

function mergeLabels(current: Readonly<Labels>, patch: Readonly<Labels>): Labels {
  const merged: Labels = { ...current };
  for (const [locale, text] of Object.entries(patch)) {
    if (text === null || text === "") delete merged[locale];
    else merged[locale] = text;
  }
  return merged;
}
