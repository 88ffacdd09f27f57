/**
 * The Activation state at size (issue 19, item 6): a pull of a connection with 100,000 known
 * orders, and a put of 10,000 offers against 100,000 known offers, through the real client,
 * state and file sink against the Activation simulator, with the state in Redis. Prints the
 * time of each step and the Redis memory of the state keys (MEMORY USAGE, summed).
 *
 *   npm run build && node dist/bench/activation/activation-state-bench.js [--redis-url URL] [--orders N] [--offers N] [--put N]
 *
 * Keys live under a prefix of their own, deleted afterwards (bench/worker/bench-redis.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { contentHash } from "../../src/core/json/canonical-json.js";
import { createApp } from "../../src/app/create-app.js";
import { dailyFileSink } from "../../src/features/activation/daily-file-sink.js";
import { pullOrders } from "../../src/features/activation/pull-orders.js";
import { putOffers } from "../../src/features/activation/put-offers.js";
import { createLogger } from "../../src/infra/log/create-logger.js";
import { settingsSchema } from "../../src/settings/settings-schema.js";
import { sampleOrder } from "../../sim/activation/activation-sample.js";
import { SIM_ACTIVATION_CONNECTION_ID, SIM_ACTIVATION_TOKEN, startActivationSimulator } from "../../sim/activation/activation-simulator.js";
import { DEFAULT_BENCH_REDIS_URL, openBenchRedis, type BenchRedis } from "../worker/bench-redis.js";
import { EMPTY_REDACTOR } from "../../src/infra/secrets/redactor.js";

const CONNECTION = "amazon-fr";

async function stateBytes(bench: BenchRedis, what: readonly string[]): Promise<number> {
  let total = 0;
  for (const name of what) {
    const bytes = (await bench.redis.call("MEMORY", "USAGE", `${bench.prefix}:activation:${CONNECTION}:${name}`, "SAMPLES", "0")) as
      number | null;
    total += bytes ?? 0;
  }
  return total;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = process.hrtime.bigint();
  const result = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { "redis-url": { type: "string" }, orders: { type: "string" }, offers: { type: "string" }, put: { type: "string" } },
  });
  const orderCount = Number(values.orders ?? 100_000);
  const knownOffers = Number(values.offers ?? 100_000);
  const putCount = Number(values.put ?? 10_000);
  const bench = await openBenchRedis(values["redis-url"] ?? DEFAULT_BENCH_REDIS_URL);
  const orders = Array.from({ length: orderCount }, (_, i) => sampleOrder(CONNECTION, i + 1));
  const sim = await startActivationSimulator({ orders: { [CONNECTION]: orders }, pageSize: 1000, requestsPerSecond: 1000 });
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-activation-bench-"));
  const settings = settingsSchema.parse({
    state_dir: join(dir, "state"),
    log_level: "silent",
    redis: { url: bench.url, prefix: bench.prefix },
    activation: {
      url: sim.url,
      pim_connection_id: SIM_ACTIVATION_CONNECTION_ID,
      access_token: SIM_ACTIVATION_TOKEN,
      requests_per_second: 1000,
      offers: { batch_size: 100 },
    },
  });
  // The bench's Redis is given: the app uses it and leaves it to bench.cleanup().
  const app = createApp(settings, { logger: createLogger({ level: "silent", redactor: EMPTY_REDACTOR }), redis: bench.redis });
  const runtime = await app.activation();
  const sink = dailyFileSink(join(dir, "orders"));
  const deps = { client: runtime.client, state: runtime.state, sink };
  try {
    console.log(
      `machine: ${process.platform}, load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")} (shared: other sessions run tests at the same time)`,
    );
    const first = await timed(() => pullOrders(deps, CONNECTION, { all: false }));
    console.log(
      `first pull, ${orderCount} new orders: ${first.ms.toFixed(0)} ms (${first.result.emitted} delivered, ${first.result.pages} pages)`,
    );
    console.log(
      `orders state after it: ${(await stateBytes(bench, ["orders", "orders-listed"])) / 1024 / 1024} MiB (orders + orders-listed)`,
    );
    sim.upsertOrder(CONNECTION, { ...sampleOrder(CONNECTION, 5), data: { status: { code: "SHIPPED" } } });
    const second = await timed(() => pullOrders(deps, CONNECTION, { all: false }));
    console.log(
      `pull with ${orderCount} known orders, 1 changed: ${second.ms.toFixed(0)} ms (${second.result.emitted} delivered, ${second.result.unchanged} unchanged)`,
    );
    const readOnly = await timed(() => runtime.client.readOrderPages(CONNECTION));
    console.log(`  of which reading the ${second.result.pages} pages over HTTP alone takes about ${readOnly.ms.toFixed(0)} ms`);

    const offer = (i: number, stock: number): Record<string, unknown> => ({
      sku: `SKU-${i}`,
      price: { amount: 10 + (i % 50), currency: "EUR" },
      stock,
      condition: "new",
    });
    const seed = await timed(async () => {
      // The known offers, recorded as accepted (what 1,000 earlier PUTs of 100 would have left).
      const accepted = Array.from({ length: knownOffers }, (_, i) => ({ key: `SKU-${i}`, hash: contentHash(offer(i, 1)) }));
      await runtime.state.recordAcceptedOffers(CONNECTION, accepted);
    });
    console.log(
      `recording ${knownOffers} known offers: ${seed.ms.toFixed(0)} ms; offers state: ${(await stateBytes(bench, ["offer-hashes", "offers-accepted"])) / 1024 / 1024} MiB`,
    );
    // Half unchanged, half with a new stock.
    const input = Array.from({ length: putCount }, (_, i) => offer(i, i % 2 === 0 ? 1 : 0));
    const put = await timed(() =>
      putOffers({ client: runtime.client, state: runtime.state }, CONNECTION, input, { batchSize: 100, force: false, keyField: "sku" }),
    );
    console.log(
      `put of ${putCount} offers against ${knownOffers} known: ${put.ms.toFixed(0)} ms (${put.result.report.sent} sent in ${put.result.report.batches} PUTs, ${put.result.report.skipped} skipped)`,
    );
    console.log(`offers state after it: ${(await stateBytes(bench, ["offer-hashes", "offers-accepted"])) / 1024 / 1024} MiB`);
  } finally {
    await app.stop();
    await sim.close();
    await bench.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
