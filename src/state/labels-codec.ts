import { z } from "zod";
import type { ServiceLabels } from "../domain/option-collection.js";

const labelsSchema = z.record(z.string(), z.string());

/** State is our own data, but it outlives versions of pim-sync: parse it like any boundary. */
export function decodeLabels(text: string, where: string): ServiceLabels {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`corrupt state at ${where}: not JSON`);
  }
  return parseLabels(raw, where);
}

export function parseLabels(raw: unknown, where: string): ServiceLabels {
  const parsed = labelsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`corrupt state at ${where}: labels must map locale to text`);
  return parsed.data;
}

export function encodeLabels(labels: ServiceLabels): string {
  return JSON.stringify(labels);
}
