/**
 * Bodies of update-options and add-options, validated strictly from the documented example
 * (`{upsert_options:[{name,label}], delete_options:[...], delete_all}`, labels keyed `en-US`).
 * The real service's validation is not documented; being strict here makes client mistakes
 * (underscore locales, empty labels, stray keys) fail in tests instead of in production.
 */
import { z } from "zod";

import { SERVICE_LABEL_KEY } from "../catalog/service-catalog-schema.js";

import type { FieldErrors } from "./drf-errors.js";

const requiredString = z.string({ error: (issue) => (issue.input === undefined ? "This field is required." : "Not a valid string.") });

const optionSchema = z.strictObject({
  name: requiredString.refine((name) => name.trim() !== "", { error: "This field may not be blank." }),
  label: z.record(
    z.string().regex(SERVICE_LABEL_KEY, { error: "Label keys must be locale codes such as en-US." }),
    requiredString.min(1, { error: "This field may not be blank." }),
    { error: (issue) => (issue.input === undefined ? "This field is required." : "Expected a dictionary of items.") },
  ),
});

const upsertOptionsSchema = z
  .array(optionSchema, { error: (issue) => (issue.input === undefined ? "This field is required." : "Expected a list of items.") })
  .superRefine((options, ctx) => {
    const seen = new Set<string>();
    options.forEach((option, index) => {
      // Two upserts of one name in one request would make the result depend on order: refuse.
      if (seen.has(option.name))
        ctx.addIssue({ code: "custom", path: [index, "name"], message: `Option "${option.name}" appears more than once.` });
      seen.add(option.name);
    });
  });

const updateOptionsSchema = z.strictObject({
  upsert_options: upsertOptionsSchema.optional(),
  delete_options: z.array(requiredString, { error: "Expected a list of items." }).optional(),
  delete_all: z.boolean({ error: "Must be a valid boolean." }).optional(),
});

const addOptionsSchema = z.strictObject({ upsert_options: upsertOptionsSchema });

export interface OptionPayload {
  readonly name: string;
  readonly label: Readonly<Record<string, string>>;
}

export interface UpdateOptionsBody {
  readonly upsert_options?: readonly OptionPayload[];
  readonly delete_options?: readonly string[];
  readonly delete_all?: boolean;
}

export type PayloadResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: FieldErrors };

export function parseUpdateOptions(body: unknown): PayloadResult<UpdateOptionsBody> {
  const parsed = updateOptionsSchema.safeParse(body);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: toFieldErrors(parsed.error) };
}

export function parseAddOptions(body: unknown): PayloadResult<readonly OptionPayload[]> {
  const parsed = addOptionsSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: toFieldErrors(parsed.error) };
  return { ok: true, value: parsed.data.upsert_options };
}

/** zod issues → DRF field errors: keyed by top-level field, the rest of the path in the message. */
function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string): void => {
    (errors[field] ??= []).push(message);
  };
  for (const issue of error.issues) {
    const [field, ...rest] = issue.path;
    if (issue.code === "unrecognized_keys" && field === undefined) {
      for (const key of issue.keys) add(key, "Unknown field.");
      continue;
    }
    if (issue.code === "invalid_type" && field === undefined) {
      add("non_field_errors", "Invalid data. Expected a dictionary.");
      continue;
    }
    const message = issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    const where = rest.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
    add(field === undefined ? "non_field_errors" : String(field), where === "" ? message : `${where.replace(/^\./, "")}: ${message}`);
  }
  return errors;
}
