/**
 * The catalogue file both simulators load: `{ pim, service }`. Parsing is strict (unknown keys are
 * errors) and every error names the path of the value at fault, because a catalogue is written by
 * hand and a silently ignored typo would make a test pass for the wrong reason.
 */
import { readFile } from "node:fs/promises";

import { z } from "zod";

import { pimCatalogSchema } from "./pim-catalog-schema.js";
import { serviceCatalogSchema } from "./service-catalog-schema.js";

export const simCatalogSchema = z.strictObject({
  // prefault, not default: the empty object still goes through the inner schema and gets its defaults.
  pim: pimCatalogSchema.prefault({}),
  service: serviceCatalogSchema.prefault({}),
});

export type SimCatalog = z.output<typeof simCatalogSchema>;

export class SimCatalogError extends Error {
  override readonly name = "SimCatalogError";
}

/** Validates an already-parsed JSON value; `source` only labels the error message. */
export function parseSimCatalog(json: unknown, source = "catalogue"): SimCatalog {
  const result = simCatalogSchema.safeParse(json);
  if (!result.success) {
    throw new SimCatalogError(`Invalid simulator catalogue (${source}):\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

export async function loadSimCatalog(path: string): Promise<SimCatalog> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SimCatalogError(`Invalid simulator catalogue (${path}): not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseSimCatalog(json, path);
}
