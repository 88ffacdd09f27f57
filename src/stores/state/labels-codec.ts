import { z } from "zod";
import type { ServiceLabels } from "../../core/domain/option-collection.js";

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

/**
 * A plain check rather than a zod parse: it runs once per option of every collection a sync
 * reads (a million on large catalogues), and the shape is one flat object of strings.
 */
export function parseLabels(raw: unknown, where: string): ServiceLabels {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new Error(`corrupt state at ${where}: labels must map locale to text`);
  for (const value of Object.values(raw)) {
    if (typeof value !== "string") throw new Error(`corrupt state at ${where}: labels must map locale to text`);
  }
  return raw as ServiceLabels;
}

export function encodeLabels(labels: ServiceLabels): string {
  return JSON.stringify(labels);
}

const additionSchema = z.union([
  z.object({ at: z.number(), label: labelsSchema }),
  // Written by the first versions: the time alone.
  z.number().transform((at) => ({ at, label: {} })),
]);

/** One recorded addition: when, and with which labels. */
export function encodeAddition(atMs: number, label: ServiceLabels): string {
  return JSON.stringify({ at: atMs, label });
}

export function parseAddition(raw: unknown, where: string): { at: number; label: ServiceLabels } {
  const parsed = additionSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`corrupt state at ${where}: not a recorded addition`);
  return parsed.data;
}
