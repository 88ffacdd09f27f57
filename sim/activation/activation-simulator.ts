/**
 * A real HTTP server standing in for the Akeneo Activation API (reference §5): channel
 * connections, orders with `nextSearchAfter` paging, offers and shipment PUTs (recorded), the
 * auth headers of Akeneo's samples (or a bearer token), a per-second budget, and the shared
 * fault injection. It also serves a stand-in for a user's order webhook (`POST /webhook/orders`),
 * so the worker's webhook sink can be exercised end to end. Where the API is silent, the choices
 * are listed in sim/README.md.
 */
import { createRateWindow } from "../shared/rate-window.js";
import { jsonReply } from "../shared/replies.js";
import { createRouter, paramOf, type RouteParams } from "../shared/router.js";
import { headerOf, type SimReply, type SimRequest } from "../shared/sim-request.js";
import { startSimulatorRuntime, type SimulatorControls } from "../shared/simulator-runtime.js";
import { SAMPLE_CONNECTIONS, sampleOrders, type SimChannelConnection, type SimOrder } from "./activation-sample.js";

export const SIM_ACTIVATION_CONNECTION_ID = "sim-pim-connection";
export const SIM_ACTIVATION_TOKEN = "sim-activation-token";
export const SIM_WEBHOOK_TOKEN = "sim-webhook-token";

export interface ActivationSimulatorOptions {
  readonly host?: string;
  readonly port?: number;
  readonly latencyMs?: number;
  readonly connections?: readonly SimChannelConnection[];
  /** Orders per connection id, oldest first. */
  readonly orders?: Readonly<Record<string, readonly SimOrder[]>>;
  readonly pageSize?: number;
  /** Query parameter that carries the cursor back (the real name is not published). */
  readonly cursorParam?: string;
  /** When set, offers bodies must be `{<envelope>: [...]}` instead of a bare array. */
  readonly offersEnvelope?: string | null;
  readonly requestsPerSecond?: number;
  readonly pimConnectionId?: string;
  readonly accessToken?: string;
  readonly webhookToken?: string;
}

export interface WebhookDelivery {
  readonly idempotencyKey: string | null;
  readonly body: unknown;
  /** True when this Idempotency-Key was delivered before. */
  readonly duplicate: boolean;
}

export interface ActivationSimulator extends SimulatorControls {
  /** Offers bodies accepted per connection, one entry per PUT (the offers array). */
  offerBatches(connection: string): unknown[][];
  /** Shipment bodies accepted per connection, in order. */
  shipments(connection: string): unknown[];
  webhookDeliveries(): WebhookDelivery[];
  /** The webhook answers 422 to every delivery of this order id (its body's `order_id`) until accepted again. */
  refuseWebhookOrder(orderId: string): void;
  acceptWebhookOrder(orderId: string): void;
  /** What the marketplace now holds per offer `sku`: the last offer accepted for it. */
  currentOffers(connection: string): Record<string, unknown>;
  /** Replaces (or adds) an order by id: the next pull sees the change. */
  upsertOrder(connection: string, order: SimOrder): void;
  /** The API stops listing this order (e.g. an old order out of its window). */
  removeOrder(connection: string, orderId: string): void;
  /** The next orders list of the connection answers with a cursor that repeats (a broken upstream). */
  repeatCursorOnce(connection: string): void;
}

interface Route {
  readonly public?: boolean;
  handle(request: SimRequest, params: RouteParams): SimReply;
}

const message = (status: number, text: string, headers: Record<string, string> = {}): SimReply =>
  jsonReply(status, { code: status, message: text }, headers);

export async function startActivationSimulator(options: ActivationSimulatorOptions = {}): Promise<ActivationSimulator> {
  const connections = [...(options.connections ?? SAMPLE_CONNECTIONS)];
  const orders = new Map<string, SimOrder[]>(
    Object.entries(options.orders ?? sampleOrders()).map(([id, list]) => [id, list.map((order) => structuredClone(order))]),
  );
  const pageSize = options.pageSize ?? 3;
  const cursorParam = options.cursorParam ?? "search_after";
  const envelope = options.offersEnvelope ?? null;
  const pimConnectionId = options.pimConnectionId ?? SIM_ACTIVATION_CONNECTION_ID;
  const accessToken = options.accessToken ?? SIM_ACTIVATION_TOKEN;
  const webhookToken = options.webhookToken ?? SIM_WEBHOOK_TOKEN;
  const window = createRateWindow(options.requestsPerSecond ?? 20);
  const offerBatches = new Map<string, unknown[][]>();
  const shipments = new Map<string, unknown[]>();
  const deliveries: WebhookDelivery[] = [];
  const deliveredKeys = new Set<string>();
  const refusedOrderIds = new Set<string>();
  const repeatCursor = new Set<string>();

  const known = (id: string): boolean => connections.some((connection) => connection.id === id);
  const parseBody = (request: SimRequest): { ok: true; value: unknown } | { ok: false; reply: SimReply } => {
    try {
      return { ok: true, value: JSON.parse(request.body.toString("utf8")) as unknown };
    } catch {
      return { ok: false, reply: message(400, "Body is not valid JSON.") };
    }
  };

  const router = createRouter<Route>();
  router.add("GET", "/v1/channel-connections", { handle: () => jsonReply(200, connections) });

  router.add("GET", "/v1/channel-connections/:id/orders", {
    handle(request, params) {
      const id = paramOf(params, "id");
      if (!known(id)) return message(404, `Channel connection "${id}" not found.`);
      const list = orders.get(id) ?? [];
      const rawCursor = request.query.get(cursorParam);
      // The cursor is the offset, made opaque; a client must send it back as it came.
      const offset = rawCursor === null ? 0 : decodeCursor(rawCursor);
      if (offset === undefined || offset > list.length) return message(400, `Invalid ${cursorParam}.`);
      const page = list.slice(offset, offset + pageSize);
      const nextOffset = offset + page.length;
      let next: string | null = nextOffset < list.length ? encodeCursor(nextOffset) : null;
      if (next !== null && rawCursor !== null && repeatCursor.delete(id)) next = rawCursor;
      return jsonReply(200, { totalCount: list.length, resultsPerPage: pageSize, nextSearchAfter: next, results: page });
    },
  });

  router.add("PUT", "/v1/channel-connections/:id/offers", {
    handle(request, params) {
      const id = paramOf(params, "id");
      if (!known(id)) return message(404, `Channel connection "${id}" not found.`);
      const body = parseBody(request);
      if (!body.ok) return body.reply;
      const list = envelope === null ? body.value : isObject(body.value) ? body.value[envelope] : undefined;
      if (!Array.isArray(list))
        return message(400, envelope === null ? "Body must be an array of offers." : `Body must be {"${envelope}": [offers]}.`);
      const problems = list.flatMap((offer: unknown, index) =>
        isObject(offer) && typeof offer.sku === "string" && offer.sku !== "" ? [] : [`offers[${index}]: sku is required`],
      );
      if (problems.length > 0) return message(400, problems.join("; "));
      const batches = offerBatches.get(id) ?? [];
      batches.push(list as unknown[]);
      offerBatches.set(id, batches);
      return jsonReply(200, { accepted: list.length });
    },
  });

  router.add("PUT", "/v1/channel-connections/:id/orders/update-shipment", {
    handle(request, params) {
      const id = paramOf(params, "id");
      if (!known(id)) return message(404, `Channel connection "${id}" not found.`);
      const body = parseBody(request);
      if (!body.ok) return body.reply;
      const shipment = body.value;
      if (!isObject(shipment) || typeof shipment.orderId !== "string") return message(400, "orderId is required.");
      const orderId = shipment.orderId;
      if (!(orders.get(id) ?? []).some((order) => order.id === orderId)) return message(404, `Order "${orderId}" not found.`);
      const list = shipments.get(id) ?? [];
      list.push(shipment);
      shipments.set(id, list);
      return jsonReply(200, { status: "accepted" });
    },
  });

  router.add("POST", "/webhook/orders", {
    public: true,
    handle(request) {
      if (headerOf(request, "authorization") !== `Bearer ${webhookToken}`) return message(401, "Bad webhook token.");
      const body = parseBody(request);
      if (!body.ok) return body.reply;
      const orderId = isObject(body.value) && typeof body.value.order_id === "string" ? body.value.order_id : null;
      if (orderId !== null && refusedOrderIds.has(orderId)) return message(422, `Order ${orderId} cannot be imported: unknown customer.`);
      const key = headerOf(request, "idempotency-key") ?? null;
      const duplicate = key !== null && deliveredKeys.has(key);
      if (key !== null) deliveredKeys.add(key);
      deliveries.push({ idempotencyKey: key, body: body.value, duplicate });
      return jsonReply(200, { received: true });
    },
  });

  const authorized = (request: SimRequest): boolean => {
    if (headerOf(request, "authorization") === `Bearer ${accessToken}`) return true;
    return headerOf(request, "pim_connection_id") === pimConnectionId && headerOf(request, "access_token") === accessToken;
  };

  const controls = await startSimulatorRuntime<Route>({
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    latencyMs: options.latencyMs ?? 0,
    router,
    async dispatch(request, lookup, context) {
      if (lookup.kind === "not-found") return message(404, "Not found.");
      if (lookup.kind === "method-not-allowed") return message(405, "Method not allowed.", { allow: lookup.allowed.join(", ") });
      const route = lookup.match.handler;
      if (route.public !== true) {
        if (!authorized(request)) return message(401, "Invalid or missing access token.");
        if (!window.tryAcquire()) return message(429, "Too many requests.", { "retry-after": "1" });
      }
      await context.applyLatency();
      return route.handle(request, lookup.match.params);
    },
    defaultFaultBody: (status) => ({
      code: status,
      message: status === 429 ? "Too many requests." : status >= 500 ? "Internal server error." : `Simulated error ${status}.`,
    }),
  });

  return {
    ...controls,
    offerBatches: (connection) => structuredClone(offerBatches.get(connection) ?? []),
    shipments: (connection) => structuredClone(shipments.get(connection) ?? []),
    webhookDeliveries: () => structuredClone(deliveries),
    refuseWebhookOrder: (orderId) => void refusedOrderIds.add(orderId),
    acceptWebhookOrder: (orderId) => void refusedOrderIds.delete(orderId),
    currentOffers(connection) {
      const current: Record<string, unknown> = {};
      for (const batch of offerBatches.get(connection) ?? [])
        for (const offer of batch) if (isObject(offer) && typeof offer.sku === "string") current[offer.sku] = structuredClone(offer);
      return current;
    },
    upsertOrder(connection, order) {
      const list = orders.get(connection) ?? [];
      const index = list.findIndex((existing) => existing.id === order.id && order.id !== undefined);
      if (index >= 0) list[index] = structuredClone(order);
      else list.push(structuredClone(order));
      orders.set(connection, list);
    },
    removeOrder(connection, orderId) {
      orders.set(
        connection,
        (orders.get(connection) ?? []).filter((order) => order.id !== orderId),
      );
    },
    repeatCursorOnce(connection) {
      repeatCursor.add(connection);
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

function decodeCursor(text: string): number | undefined {
  const match = /^offset:(\d+)$/.exec(Buffer.from(text, "base64url").toString("utf8"));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
