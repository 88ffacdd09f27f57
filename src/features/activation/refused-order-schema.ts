import { z } from "zod";
import type { RefusedOrder } from "./activation-state-store.js";

/** A set-aside order as stored, and as the admin API lists it. */
export const refusedOrderSchema = z.strictObject({
  connection: z.string(),
  order_id: z.string(),
  delivery_id: z.string(),
  version: z.int().positive(),
  hash: z.string(),
  status: z.int(),
  reason: z.string(),
  refused_at: z.string(),
  order: z.unknown(),
});

/** A stored set-aside order, checked: the store is read by other versions of pim-sync too. */
export function parseRefusedOrder(text: string, where: string): RefusedOrder {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`corrupt set-aside order in ${where}: not JSON`);
  }
  const parsed = refusedOrderSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `corrupt set-aside order in ${where}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  return parsed.data as RefusedOrder;
}
