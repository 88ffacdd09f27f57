import { z } from "zod";
import { ACTIVATION_DEFAULTS } from "./activation-assumptions.js";

/**
 * The optional `activation` section of the config, exactly as issue 8 gives it. Strict like the
 * rest: a typo is an error. The sync needs none of it.
 */
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const nonEmpty = z.string().trim().min(1, "must not be empty");

const fileSinkSchema = z.strictObject({
  type: z.literal("file"),
  /** One NDJSON file per connection per UTC day under this folder. */
  dir: nonEmpty,
});

const webhookSinkSchema = z.strictObject({
  type: z.literal("webhook"),
  url: httpUrl,
  /** Sent as `Authorization: Bearer <token>`. */
  token: nonEmpty,
});

export const activationOrdersSchema = z.strictObject({
  /** Cron of the worker's pulls; no schedule when left out. */
  schedule: nonEmpty.optional(),
  connections: z.union([z.literal("all"), z.array(nonEmpty).min(1, "must list at least one connection id, or be 'all'")]).default("all"),
  sink: z.discriminatedUnion("type", [fileSinkSchema, webhookSinkSchema], { error: "must be { type: file, dir } or { type: webhook, url, token }" }).default({
    type: "file",
    dir: ACTIVATION_DEFAULTS.ordersDir,
  }),
  /** An order no pull has listed for this many days is forgotten (listed again later, it is delivered again as new). */
  retention_days: z.int().min(1).max(3650).default(ACTIVATION_DEFAULTS.ordersRetentionDays),
});

export const activationOffersSchema = z.strictObject({
  batch_size: z.int().min(1).max(10_000).default(ACTIVATION_DEFAULTS.offersBatchSize),
  /** null: the body is the JSON array itself; a name: `{<name>: [...]}`. */
  envelope: nonEmpty.nullable().default(ACTIVATION_DEFAULTS.offersEnvelope),
  /** The field that names an offer's product: an offer is compared with the last one accepted under the same value. */
  key: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, "must be a field name (letters, digits, underscore)")
    .default(ACTIVATION_DEFAULTS.offerKey),
  /** An offer not accepted again for this many days is forgotten (its next put is sent, even unchanged). */
  retention_days: z.int().min(1).max(3650).default(ACTIVATION_DEFAULTS.offersRetentionDays),
});

export const activationSchema = z.strictObject({
  /** Server root; pim-sync adds `/v1/...`. */
  url: httpUrl,
  pim_connection_id: nonEmpty,
  access_token: nonEmpty,
  auth: z.enum(["headers", "bearer"]).default(ACTIVATION_DEFAULTS.auth),
  requests_per_second: z.number().positive().max(1000).default(ACTIVATION_DEFAULTS.requestsPerSecond),
  cursor_param: z
    .string()
    .regex(/^[A-Za-z0-9_.[\]-]+$/, "must be a query parameter name")
    .default(ACTIVATION_DEFAULTS.cursorParam),
  offers: activationOffersSchema.default(activationOffersSchema.parse({})),
  orders: activationOrdersSchema.default(activationOrdersSchema.parse({})),
});

export type ActivationSettings = z.infer<typeof activationSchema>;
export type ActivationSink = ActivationSettings["orders"]["sink"];
