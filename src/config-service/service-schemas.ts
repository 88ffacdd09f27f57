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

/** update-options and add-options answer with the collection summary; nothing else is relied on. */
export const writeResponseSchema = z.unknown();
