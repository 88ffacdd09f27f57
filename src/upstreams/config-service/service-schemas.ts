import { z } from "zod";

/** Wire shapes of the configuration service (DRF-style envelopes). Unknown fields tolerated. */

export const collectionSummarySchema = z.object({
  id: z.int(),
  name: z.string().min(1),
  project: z.int(),
});
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;

export const collectionPageSchema = z.object({
  count: z.int().min(0),
  next: z.string().nullable().optional(),
  previous: z.string().nullable().optional(),
  results: z.array(collectionSummarySchema),
});

export const tokenResponseSchema = z.union([
  z.object({ key: z.string().min(1) }).transform((body) => body.key),
  // A community client saw `token` instead of `key`: accept both.
  z.object({ token: z.string().min(1) }).transform((body) => body.token),
]);

/**
 * update-options and add-options answer with the collection summary (`{id, name, project}`, the
 * documented success body). Its `id` is required and must be the collection written: an empty
 * body, a page or any other JSON (a proxy's answer) is not taken as the write being done.
 */
export const writeResponseSchema = z.looseObject({ id: z.int() });
