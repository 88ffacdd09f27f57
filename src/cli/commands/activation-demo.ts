import { createApp } from "../../app/create-app.js";
import { pullOrders } from "../../features/activation/pull-orders.js";
import { putOffers } from "../../features/activation/put-offers.js";
import { deliveryRecord, type OrderSink } from "../../features/activation/order-sink.js";
import { createLogger } from "../../infra/log/create-logger.js";
import { settingsSchema } from "../../settings/settings-schema.js";
import {
  SIM_ACTIVATION_CONNECTION_ID,
  SIM_ACTIVATION_TOKEN,
  type ActivationSimulator,
} from "../../../sim/activation/activation-simulator.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";

const CONNECTION = "amazon-fr";

/** The demo's Activation part: one pull (and a second that finds nothing new), one offer push. */
export async function runActivationDemo(args: {
  readonly activationUrl: string;
  readonly stateDir: string;
  readonly sim: ActivationSimulator;
  readonly io: CliIo;
}): Promise<void> {
  const { io } = args;
  const settings = settingsSchema.parse({
    state_dir: args.stateDir,
    // An Activation-only config: no project.
    activation: {
      url: args.activationUrl,
      pim_connection_id: SIM_ACTIVATION_CONNECTION_ID,
      access_token: SIM_ACTIVATION_TOKEN,
      offers: { batch_size: 2 },
    },
  });
  const logger = createLogger({ level: "warn", redactor: redactorOfSettings(settings) });
  const app = createApp(settings, { logger });
  const lines: string[] = [];
  const sink: OrderSink = {
    async deliver(connection, orders, options) {
      for (const order of orders) lines.push(JSON.stringify(deliveryRecord(connection, order)));
      await options.onOutcome({ kind: "delivered", orders });
    },
  };
  try {
    const runtime = await app.activation();
    writeLine(io.stdout, `\n=== Activation API simulator at ${args.activationUrl} ===`);
    const connections = await runtime.client.listConnections(io.signal);
    writeLine(io.stdout, `Channel connections: ${connections.connections.map((c) => c.id).join(", ")}`);

    const first = await pullOrders({ client: runtime.client, state: runtime.state, sink }, CONNECTION, { all: false, signal: io.signal });
    writeLine(io.stdout, `\nPull of ${CONNECTION}: ${first.emitted} order(s) over ${first.pages} page(s); the first NDJSON line:`);
    writeLine(io.stdout, `  ${lines[0] ?? "(none)"}`);
    const second = await pullOrders({ client: runtime.client, state: runtime.state, sink }, CONNECTION, { all: false, signal: io.signal });
    writeLine(io.stdout, `Second pull: ${second.emitted} new or changed order(s), ${second.unchanged} unchanged`);

    const offers = [
      { sku: "SKU-1", price: { amount: 21.9, currency: "EUR" }, stock: 12, condition: "new" },
      { sku: "SKU-2", price: { amount: 22.9, currency: "EUR" }, stock: 0, condition: "new" },
      { sku: "SKU-3", price: { amount: 23.9, currency: "EUR" }, stock: 4, condition: "used" },
    ];
    const push = await putOffers({ client: runtime.client, state: runtime.state }, CONNECTION, offers, {
      batchSize: 2,
      force: false,
      keyField: "sku",
      signal: io.signal,
    });
    writeLine(
      io.stdout,
      `\nOffer push: ${push.report.sent} sent, ${push.report.skipped} skipped, ${push.report.batches} batch(es); the simulator received ${args.sim.offerBatches(CONNECTION).length} PUT(s)`,
    );
    const again = await putOffers({ client: runtime.client, state: runtime.state }, CONNECTION, offers, {
      batchSize: 2,
      force: false,
      keyField: "sku",
      signal: io.signal,
    });
    writeLine(io.stdout, `Same offers again: ${again.report.sent} sent, ${again.report.skipped} skipped (unchanged since last accepted)`);
  } finally {
    await app.stop();
    logger.flush();
  }
}
