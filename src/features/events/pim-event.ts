import { z } from "zod";

/**
 * The CloudEvents 1.0 envelope the Event Platform posts. Loose (`z.object`): the platform may add
 * attributes, and an event must not be refused for a field pim-sync does not read.
 */
export const pimEventSchema = z.object({
  specversion: z.string().optional(),
  id: z.string().trim().min(1, "must not be empty").max(200),
  type: z.string().trim().min(1, "must not be empty").max(200),
  source: z.string().optional(),
  /** The PIM tenant's id (a UUID in Akeneo's examples). */
  subject: z.string().max(200).optional(),
  time: z.string().max(100).optional(),
  data: z.unknown().optional(),
});

export type PimEvent = z.output<typeof pimEventSchema>;

/** The type prefix of every PIM event: `com.akeneo.pim.v1.<resource>.<change>`. */
export const PIM_EVENT_TYPE_PREFIX = "com.akeneo.pim.v1.";

/** The event types a project's subscription needs (what `pim-sync events` prints). */
export const SUBSCRIBED_EVENT_TYPES: readonly string[] = [
  ...["attribute", "attribute-option", "reference-entity-record", "family"].flatMap((resource) =>
    ["created", "updated", "deleted"].map((change) => `${PIM_EVENT_TYPE_PREFIX}${resource}.${change}`),
  ),
  `${PIM_EVENT_TYPE_PREFIX}connection.deleted`,
];
