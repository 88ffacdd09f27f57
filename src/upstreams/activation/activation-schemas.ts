import { z } from "zod";

/**
 * Response shapes, from Akeneo's extension-sdk samples (reference §5.3). Only what pim-sync
 * relies on is checked; everything else passes through untouched, since orders are emitted as
 * the API sent them.
 */
export const channelConnectionSchema = z.looseObject({
  id: z.string().min(1),
  label: z.string().nullish(),
  syndicationChannelCode: z.string().nullish(),
});
export type ChannelConnection = z.infer<typeof channelConnectionSchema>;

/** The list is a bare JSON array; elements are checked one by one so the raw array can be printed unchanged. */
export const channelConnectionListSchema = z.array(z.unknown());

export const ordersPageSchema = z.looseObject({
  totalCount: z.number().optional(),
  resultsPerPage: z.number().optional(),
  /** null (or absent) on the last page. */
  nextSearchAfter: z.union([z.string().min(1), z.number()]).nullish(),
  results: z.array(z.unknown()),
});
export type OrdersPage = z.infer<typeof ordersPageSchema>;

/** Write answers: nothing in them is relied on (the bodies are not published). */
export const anyBodySchema = z.unknown();
