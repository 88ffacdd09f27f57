import { z } from "zod";
import { PARSED_ONCE } from "./parsed-once.js";
import { secret } from "./secret.js";

/**
 * Config defaults that are guesses, not published values: with the other unpublished choices of
 * src/upstreams/activation/activation-assumptions.ts, the first thing to revisit the day the spec is read.
 */
const ACTIVATION_DEFAULTS = {
  /** Akeneo's samples send `pim_connection_id` and `access_token` headers (extension-sdk); bearer is an option. */
  auth: "headers",
  /** No published limit: conservative. */
  requestsPerSecond: 5,
  /** The name of the query parameter that sends `nextSearchAfter` back is not published. */
  cursorParam: "search_after",
  /** The offers body schema is not published: a bare JSON array unless an envelope is configured. */
  offersEnvelope: null,
  offersBatchSize: 100,
  /** The samples and the help page identify an offer by its product's SKU. */
  offerKey: "sku",
  /** Not an API fact: how long pim-sync remembers what it delivered or sent (docs/activation.md, State and retention). */
  ordersRetentionDays: 90,
  offersRetentionDays: 30,
  ordersDir: "./orders",
} as const;

/* The optional `activation` section of the config. Strict like the rest: a typo is an error. The sync needs none of it. */
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const nonEmpty = z.string().trim().min(1, "must not be empty");

const fileSinkSchema = z.strictObject({
  type: z.literal("file").describe("where pulled orders go: `file` (the default) or `webhook`"),
  dir: nonEmpty.describe("with `type: file`: one NDJSON file per connection per UTC day under this folder (`./orders` by default)"),
});

const webhookSinkSchema = z.strictObject({
  type: z.literal("webhook"),
  url: httpUrl.describe("with `type: webhook`: each order is POSTed here"),
  token: secret(nonEmpty).describe("with `type: webhook`: sent as `Authorization: Bearer <token>`"),
});

export const activationOrdersSchema = z.strictObject({
  schedule: nonEmpty.optional().describe("cron of the worker's order pulls (every connection); no scheduled pull when left out"),
  connections: z
    .union([z.literal("all"), z.array(nonEmpty).min(1, "must list at least one connection id, or be 'all'")])
    .default("all")
    .describe("`all`, or the list of channel-connection ids to pull"),
  sink: z
    .discriminatedUnion("type", [fileSinkSchema, webhookSinkSchema], {
      error: "must be { type: file, dir } or { type: webhook, url, token }",
    })
    .default({
      type: "file",
      dir: ACTIVATION_DEFAULTS.ordersDir,
    }),
  retention_days: z
    .int()
    .min(1)
    .max(3650)
    .default(ACTIVATION_DEFAULTS.ordersRetentionDays)
    .describe("an order no pull has listed for this many days is forgotten (listed again later, it is delivered again as new)"),
});

export const activationOffersSchema = z.strictObject({
  batch_size: z.int().min(1).max(10_000).default(ACTIVATION_DEFAULTS.offersBatchSize).describe("offers per PUT request"),
  envelope: nonEmpty
    .nullable()
    .default(ACTIVATION_DEFAULTS.offersEnvelope)
    .describe("null: the body is the JSON array of offers itself; a name: `{<name>: [...]}`"),
  key: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, "must be a field name (letters, digits, underscore)")
    .default(ACTIVATION_DEFAULTS.offerKey)
    .describe("the field that names an offer's product: an offer is compared with the last one accepted under the same value"),
  retention_days: z
    .int()
    .min(1)
    .max(3650)
    .default(ACTIVATION_DEFAULTS.offersRetentionDays)
    .describe("an offer not accepted again for this many days is forgotten (its next put is sent, even unchanged)"),
});

export const activationSchema = z.strictObject({
  url: httpUrl.describe("the Activation API's server root; pim-sync adds `/v1/...`"),
  pim_connection_id: nonEmpty.describe("the PIM connection id Activation's token belongs to"),
  access_token: secret(nonEmpty).describe("the Activation access token (generated in Activation's settings)"),
  auth: z
    .enum(["headers", "bearer"])
    .default(ACTIVATION_DEFAULTS.auth)
    .describe(
      "`headers`: `pim_connection_id` and `access_token` headers, as Akeneo's samples send them; `bearer`: `Authorization: Bearer <access_token>`",
    ),
  requests_per_second: z
    .number()
    .positive()
    .max(1000)
    .default(ACTIVATION_DEFAULTS.requestsPerSecond)
    .describe("requests per second to the Activation connection (shared by every process)"),
  cursor_param: z
    .string()
    .regex(/^[A-Za-z0-9_.[\]-]+$/, "must be a query parameter name")
    .default(ACTIVATION_DEFAULTS.cursorParam)
    .describe("the query parameter that carries the orders list's cursor"),
  offers: activationOffersSchema.default(activationOffersSchema.parse({}, PARSED_ONCE)),
  orders: activationOrdersSchema.default(activationOrdersSchema.parse({}, PARSED_ONCE)),
});

export type ActivationSettings = z.infer<typeof activationSchema>;
export type ActivationSink = ActivationSettings["orders"]["sink"];
