/**
 * The `search` query parameter of Akeneo lists: URL-encoded JSON
 * `{"<property>":[{"operator":"<op>","value":<v>}]}` (reference §4). Each list says which
 * properties and operators it supports; anything else is refused the way the PIM refuses it.
 */
import { z } from "zod";

import type { SimReply } from "../shared/sim-request.js";

import { akeneoError } from "./akeneo-errors.js";

const searchSchema = z.record(z.string(), z.array(z.object({ operator: z.string(), value: z.unknown() })));

/** Builds the predicate for one condition's value, or says why the value is malformed. */
export type FilterFactory<T> = (value: unknown, property: string) => ((item: T) => boolean) | { readonly error: string };

export type SupportedFilters<T> = Readonly<Record<string, Readonly<Record<string, FilterFactory<T>>>>>;

export type FilterResult<T> = { readonly ok: true; readonly items: T[] } | { readonly ok: false; readonly reply: SimReply };

export function applySearch<T>(raw: string | null, items: readonly T[], supported: SupportedFilters<T>): FilterResult<T> {
  if (raw === null) return { ok: true, items: [...items] };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reply: akeneoError(400, "Search query parameter should be valid JSON.") };
  }
  const parsed = searchSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      reply: akeneoError(
        422,
        'Structure of filter should respect this structure: {"property":[{"operator": "my_operator", "value": "my_value"}]}',
      ),
    };
  }
  let kept = [...items];
  for (const [property, conditions] of Object.entries(parsed.data)) {
    for (const condition of conditions) {
      const factory = supported[property]?.[condition.operator];
      if (factory === undefined) {
        return {
          ok: false,
          reply: akeneoError(422, `Filter on property "${property}" is not supported or does not support operator "${condition.operator}"`),
        };
      }
      const test = factory(condition.value, property);
      if (typeof test !== "function") return { ok: false, reply: akeneoError(422, test.error) };
      kept = kept.filter(test);
    }
  }
  return { ok: true, items: kept };
}

/** `IN` on a string property: the value must be an array of strings. */
export function inFilter<T>(read: (item: T) => string): FilterFactory<T> {
  return (value, property) => {
    if (!Array.isArray(value) || !value.every((entry): entry is string => typeof entry === "string")) {
      return { error: `Filter "${property}" with operator "IN" expects an array of strings as value.` };
    }
    const wanted = new Set<string>(value);
    return (item) => wanted.has(read(item));
  };
}

/** `=` on a boolean property. */
export function equalsBooleanFilter<T>(read: (item: T) => boolean): FilterFactory<T> {
  return (value, property) => {
    if (typeof value !== "boolean") return { error: `Filter "${property}" with operator "=" expects a boolean as value.` };
    return (item) => read(item) === value;
  };
}
