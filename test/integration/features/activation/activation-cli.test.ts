import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { runCli } from "../../../../src/cli/main.js";
import { SAMPLE_CONNECTIONS, sampleOrder } from "../../../../sim/activation/activation-sample.js";
import {
  SIM_ACTIVATION_TOKEN,
  startActivationSimulator,
  type ActivationSimulator,
  type ActivationSimulatorOptions,
} from "../../../../sim/activation/activation-simulator.js";
import { captureIo } from "../../../support/capture-io.js";
import { createConfigSafeTestRedis } from "../../../support/process-redis.js";
import { ACTIVATION_ENV, activationConfig, writeActivationConfig } from "./activation-test-config.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const ORDERS_PATH = /^\/v1\/channel-connections\/amazon-fr\/orders$/;

interface DeliveryLine {
  readonly delivery_id: string;
  readonly connection: string;
  readonly order_id: string;
  readonly version: number;
  readonly order: unknown;
}

describe("pim-sync activation (CLI against the Activation simulator)", () => {
  let closeAfter: PimSyncFixtures["closeAfter"];
  let sim: ActivationSimulator;
  let dir: string;
  let configPath: string;

  async function start(options: ActivationSimulatorOptions = {}, activation: Record<string, unknown> = {}): Promise<void> {
    sim = closeAfter(await startActivationSimulator(options));
    configPath = await writeActivationConfig(dir, activationConfig({ activationUrl: sim.url, stateDir: join(dir, "state"), activation }));
  }

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIo(ACTIVATION_ENV);
    const code = await runCli(["activation", ...args, "--config", configPath], io);
    return { code, out: io.out(), err: io.err() };
  }

  /** `lines`: the API's orders of the delivery records; `records`: the records themselves. */
  async function pullLines(extra: string[] = []): Promise<{ code: number; lines: unknown[]; records: DeliveryLine[]; err: string }> {
    const result = await cli("orders", "--connection", "amazon-fr", ...extra);
    const records = result.out
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as DeliveryLine);
    return { code: result.code, lines: records.map((record) => record.order), records, err: result.err };
  }

  test.beforeEach(async ({ tempDir, closeAfter: closeAfterFixture }) => {
    closeAfter = closeAfterFixture;
    dir = tempDir;
  });

  describe("connections", () => {
    test("lists the channel connections; --json prints the API's array unchanged", async () => {
      await start();
      const text = await cli("connections");
      expect(text.code).toBe(0);
      expect(text.out).toContain("amazon-fr\tamazon_seller_central\tAmazon France");
      const json = await cli("connections", "--json");
      expect(json.code).toBe(0);
      expect(JSON.parse(json.out)).toEqual(SAMPLE_CONNECTIONS);
      expect(sim.requests.every((request) => request.authScheme === null)).toBe(true);
    });

    test("says so when the API lists no connection", async () => {
      await start({ connections: [] });
      const result = await cli("connections");
      expect(result).toMatchObject({ code: 0, out: "no channel connections\n" });
      expect(JSON.parse((await cli("connections", "--json")).out)).toEqual([]);
    });

    test("bad token: exit 1, the message names the header that was sent, never its value", async () => {
      await start({ accessToken: "the-real-token" });
      const result = await cli("connections");
      expect(result.code).toBe(1);
      expect(result.err).toContain("`access_token` header");
      expect(result.err).not.toContain(SIM_ACTIVATION_TOKEN);
      expect(result.err).not.toContain("the-real-token");
    });

    test("bad token in bearer mode names the Authorization header", async () => {
      await start({ accessToken: "the-real-token" }, { auth: "bearer" });
      const result = await cli("connections");
      expect(result.code).toBe(1);
      expect(result.err).toContain("Authorization: Bearer");
      expect(result.err).not.toContain(SIM_ACTIVATION_TOKEN);
    });

    test("bearer mode sends Authorization: Bearer", async () => {
      await start({}, { auth: "bearer" });
      expect((await cli("connections")).code).toBe(0);
      expect(sim.requests.map((request) => request.authScheme)).toEqual(["Bearer"]);
    });
  });

  describe("orders", () => {
    test("follows every page, sending nextSearchAfter back as cursor_param, and writes one NDJSON line per order", async () => {
      await start({ cursorParam: "after" }, { cursor_param: "after" });
      const { code, lines, err } = await pullLines();
      expect(code).toBe(0);
      expect(lines).toEqual(Array.from({ length: 7 }, (_, i) => sampleOrder("amazon-fr", i + 1)));
      const pages = sim.requests.filter((request) => ORDERS_PATH.test(request.path));
      expect(pages).toHaveLength(3);
      expect(pages[0]?.query).toEqual({});
      expect(Object.keys(pages[1]?.query ?? {})).toEqual(["after"]);
      expect(err).toContain("7 order(s) written, 0 unchanged, 0 without id, 3 page(s)");
    });

    test("repeated pulls emit only new and changed orders; --all emits everything and leaves the state", async () => {
      await start();
      expect((await pullLines()).lines).toHaveLength(7);
      expect((await pullLines()).lines).toEqual([]);

      const changed = { ...sampleOrder("amazon-fr", 2), data: { status: { code: "SHIPPED", originalCode: "shipped" } } };
      sim.upsertOrder("amazon-fr", changed);
      sim.upsertOrder("amazon-fr", sampleOrder("amazon-fr", 8));
      expect((await pullLines()).lines).toEqual([changed, sampleOrder("amazon-fr", 8)]);

      // --all emits everything, the change below included, but leaves the state as it was:
      // the next normal pull still sees the change as new.
      const cancelled = { ...sampleOrder("amazon-fr", 5), data: { status: { code: "CANCELED" } } };
      sim.upsertOrder("amazon-fr", cancelled);
      const all = (await pullLines(["--all"])).lines;
      expect(all).toHaveLength(8);
      expect(all).toContainEqual(cancelled);
      expect((await pullLines()).lines).toEqual([cancelled]);
      expect((await pullLines()).lines).toEqual([]);
    });

    test("--out FILE appends, and a second pull of the same connection appends only what is new", async () => {
      await start();
      const out = join(dir, "orders.ndjson");
      await writeFile(out, '{"kept":"line"}\n');
      expect((await cli("orders", "--connection", "amazon-fr", "--out", out)).code).toBe(0);
      sim.upsertOrder("amazon-fr", sampleOrder("amazon-fr", 9));
      const second = await cli("orders", "--connection", "amazon-fr", "--out", out);
      expect(second.out).toBe("");
      const lines = (await readFile(out, "utf8")).trimEnd().split("\n");
      expect(lines).toHaveLength(1 + 7 + 1);
      expect(lines[0]).toBe('{"kept":"line"}');
      expect(JSON.parse(lines[8] ?? "")).toMatchObject({
        connection: "amazon-fr",
        order_id: "amazon-fr-order-9",
        version: 1,
        order: sampleOrder("amazon-fr", 9),
      });
    });

    test("a failed read emits nothing and advances nothing (exit 1); the next pull emits every order", async () => {
      await start();
      // Page 1 is answered, then page 2 fails through every retry: nothing of page 1 may come out.
      const page1 = sim.waitForRequest((request) => ORDERS_PATH.test(request.path), 5_000);
      const pulling = pullLines();
      await page1;
      sim.faults.failNext({ method: "GET", path: ORDERS_PATH }, { status: 500, times: 3 });
      const failed = await pulling;
      expect(failed.code).toBe(1);
      expect(failed.lines).toEqual([]);
      expect(failed.err).toMatch(/500/);
      expect((await pullLines()).lines).toHaveLength(7);
    });

    test("rides out 429 storms (with and without Retry-After) and 5xx storms within the bounded retries", async () => {
      await start();
      sim.faults.failNext({ path: ORDERS_PATH }, { status: 429, times: 2 });
      const first = await pullLines();
      expect(first.code).toBe(0);
      expect(first.lines).toHaveLength(7);

      sim.upsertOrder("amazon-fr", sampleOrder("amazon-fr", 8));
      sim.faults.failNext({ path: ORDERS_PATH }, { status: 429, times: 1, retryAfterSeconds: 1 });
      sim.faults.failNext({ path: ORDERS_PATH }, { status: 503, times: 1 });
      const second = await pullLines();
      expect(second.code).toBe(0);
      expect(second.lines).toEqual([sampleOrder("amazon-fr", 8)]);
      expect(sim.faults.pending()).toBe(0);
      const faulted = sim.requests.filter((request) => request.fault).map((request) => request.status);
      expect(faulted).toEqual([429, 429, 429, 503]);
    });

    test("a storm longer than the retries fails the pull with exit 1 and emits nothing", async () => {
      await start();
      sim.faults.failNext({ path: ORDERS_PATH }, { status: 503, times: 3 });
      const result = await pullLines();
      expect(result.code).toBe(1);
      expect(result.lines).toEqual([]);
      expect(sim.requests.filter((request) => ORDERS_PATH.test(request.path))).toHaveLength(3);
    });

    test("a cursor that repeats stops the pull with an error instead of looping; nothing is emitted", async () => {
      await start();
      sim.repeatCursorOnce("amazon-fr");
      const result = await pullLines();
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/cursor .* again/);
      expect(result.lines).toEqual([]);
      expect(sim.requests.filter((request) => ORDERS_PATH.test(request.path))).toHaveLength(2);
      expect((await pullLines()).lines).toHaveLength(7);
    });

    test("an order without id is reported and skipped, and never emitted by later pulls", async () => {
      const withoutId = { data: { originalId: "MP-X" }, items: [] };
      await start({ orders: { "amazon-fr": [sampleOrder("amazon-fr", 1), withoutId, sampleOrder("amazon-fr", 2)] } });
      const first = await pullLines();
      expect(first.code).toBe(0);
      expect(first.lines).toEqual([sampleOrder("amazon-fr", 1), sampleOrder("amazon-fr", 2)]);
      expect(first.err).toContain("order without id skipped (page 1, order 2)");
      const second = await pullLines();
      expect(second.lines).toEqual([]);
      expect(second.err).toContain("order without id skipped");
      expect((await pullLines(["--all"])).lines).toHaveLength(2);
    });

    test("keeps the pull state in Redis when the config names one", async () => {
      await start();
      const redis = await createConfigSafeTestRedis();
      try {
        configPath = await writeActivationConfig(
          dir,
          activationConfig({ activationUrl: sim.url, stateDir: join(dir, "state"), redisPrefix: redis.prefix }),
          "redis.json",
        );
        expect((await pullLines()).lines).toHaveLength(7);
        expect(await redis.redis.hlen(`${redis.prefix}:activation:amazon-fr:orders`)).toBe(7);
        expect((await pullLines()).lines).toEqual([]);
        expect(existsSync(join(dir, "state"))).toBe(false);
      } finally {
        await redis.cleanup();
      }
    });

    test("a connection without orders writes nothing", async () => {
      await start();
      const result = await cli("orders", "--connection", "ebay-uk");
      expect(result).toMatchObject({ code: 0, out: "" });
    });
  });

  describe("offers put", () => {
    const offer = (i: number): Record<string, unknown> => ({ sku: `SKU-${i}`, price: { amount: 10 + i, currency: "EUR" }, stock: i });
    const ndjson = (items: readonly unknown[]): string => items.map((item) => JSON.stringify(item)).join("\n");

    test("sends offers unchanged in batches of batch_size, then skips them when unchanged unless --force", async () => {
      await start({}, { offers: { batch_size: 2 } });
      const file = join(dir, "offers.ndjson");
      await writeFile(file, ndjson([1, 2, 3, 4, 5].map(offer)));

      const first = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(first).toMatchObject({ code: 0 });
      expect(first.out).toContain("offers: 5 sent, 0 skipped (unchanged since last accepted), 3 batch(es)");
      expect(sim.offerBatches("amazon-fr")).toEqual([[offer(1), offer(2)], [offer(3), offer(4)], [offer(5)]]);

      // One offer changed (key order alone does not count), one new.
      await writeFile(
        file,
        ndjson([
          { stock: 1, price: { currency: "EUR", amount: 11 }, sku: "SKU-1" },
          { ...offer(2), stock: 0 },
          offer(3),
          offer(4),
          offer(5),
          offer(6),
        ]),
      );
      const second = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(second.out).toContain("offers: 2 sent, 4 skipped (unchanged since last accepted), 1 batch(es)");
      expect(sim.offerBatches("amazon-fr").at(-1)).toEqual([{ ...offer(2), stock: 0 }, offer(6)]);

      const forced = await cli("offers", "put", "--connection", "amazon-fr", "--file", file, "--force");
      expect(forced.out).toContain("offers: 6 sent, 0 skipped (unchanged since last accepted), 3 batch(es)");
    });

    test("reads a JSON array and wraps the batch in the configured envelope", async () => {
      await start({ offersEnvelope: "offers" }, { offers: { envelope: "offers" } });
      const file = join(dir, "offers.json");
      await writeFile(file, JSON.stringify([offer(1), offer(2)]));
      expect((await cli("offers", "put", "--connection", "mirakl-de", "--file", file)).code).toBe(0);
      expect(sim.offerBatches("mirakl-de")).toEqual([[offer(1), offer(2)]]);
    });

    test("a 4xx stops with the API's message and exit 1; the batches before it stay recorded", async () => {
      await start({}, { offers: { batch_size: 2 } });
      const file = join(dir, "offers.ndjson");
      // A key pim-sync accepts (a number) that the simulator refuses (it wants a string sku).
      const bad = { sku: 4, price: 3 };
      await writeFile(file, ndjson([offer(1), offer(2), offer(3), bad, offer(5)]));
      const failed = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(failed.code).toBe(1);
      expect(failed.out).toContain("offers: 2 sent, 0 skipped (unchanged since last accepted), 1 batch(es) of 3");
      expect(failed.err).toContain("offers[1]: sku is required");
      expect(sim.offerBatches("amazon-fr")).toEqual([[offer(1), offer(2)]]);

      await writeFile(file, ndjson([offer(1), offer(2), offer(3), offer(4), offer(5)]));
      const retried = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(retried.out).toContain("offers: 3 sent, 2 skipped (unchanged since last accepted), 2 batch(es)");
    });

    test("retries a batch through 5xx and 429 (PUT is idempotent) and records it once accepted", async () => {
      await start();
      const file = join(dir, "offers.ndjson");
      await writeFile(file, ndjson([offer(1)]));
      sim.faults.failNext({ method: "PUT" }, { status: 502, times: 1 });
      sim.faults.failNext({ method: "PUT" }, { status: 429, times: 1 });
      expect((await cli("offers", "put", "--connection", "amazon-fr", "--file", file)).code).toBe(0);
      expect(sim.offerBatches("amazon-fr")).toEqual([[offer(1)]]);
      expect((await cli("offers", "put", "--connection", "amazon-fr", "--file", file)).out).toContain("0 sent, 1 skipped");
    });

    test("a PUT answered 308 is not accepted: exit 1, nothing recorded, and the next put sends the offers", async () => {
      await start();
      const file = join(dir, "offers.ndjson");
      await writeFile(file, ndjson([offer(1), offer(2)]));
      sim.faults.failNext(
        { method: "PUT" },
        { status: 308, body: {}, headers: { location: "https://proxy-user:proxy-pass@api.example/v1/offers" } },
      );

      const failed = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(failed.code).toBe(1);
      expect(failed.out).not.toContain("2 sent");
      expect(failed.err).toContain("308 redirect to https://api.example, not followed");
      expect(failed.err).not.toContain("proxy-pass");
      expect(sim.offerBatches("amazon-fr")).toEqual([]);
      // Not retried: one PUT reached the simulator.
      expect(sim.requests.filter((r) => r.method === "PUT")).toHaveLength(1);

      const next = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(next.code).toBe(0);
      expect(next.out).toContain("offers: 2 sent, 0 skipped (unchanged since last accepted), 1 batch(es)");
      expect(sim.offerBatches("amazon-fr")).toEqual([[offer(1), offer(2)]]);
    });

    test("a bad file is a usage error naming the line, and nothing is sent", async () => {
      await start();
      const file = join(dir, "offers.ndjson");
      await writeFile(file, `${JSON.stringify(offer(1))}\n{broken\n`);
      const result = await cli("offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(result.code).toBe(2);
      expect(result.err).toContain("line 2: not valid JSON");
      expect(sim.requests).toEqual([]);
    });
  });

  describe("shipments put", () => {
    test("sends each shipment in its own PUT, unchanged, and sums up accepted and refused ones", async () => {
      await start();
      const file = join(dir, "shipments.json");
      const shipments = [
        { orderId: "amazon-fr-order-1", carrier: "UPS", trackingNumber: "1Z1", items: [{ id: "item-1-1", quantity: 1 }] },
        { orderId: "no-such-order", carrier: "UPS" },
        { orderId: "amazon-fr-order-2", carrier: "DHL", trackingNumber: "JD2" },
      ];
      await writeFile(file, JSON.stringify(shipments));
      const result = await cli("shipments", "put", "--connection", "amazon-fr", "--file", file);
      expect(result.code).toBe(1);
      expect(result.out).toContain("shipments: 2 accepted, 1 refused");
      expect(result.err).toContain("shipment 2 refused:");
      expect(result.err).toContain('Order \\"no-such-order\\" not found');
      expect(sim.shipments("amazon-fr")).toEqual([shipments[0], shipments[2]]);
      expect(sim.requests.filter((request) => request.method === "PUT")).toHaveLength(3);
    });

    test("exit 0 when every shipment is accepted (NDJSON input)", async () => {
      await start();
      const file = join(dir, "shipments.ndjson");
      await writeFile(file, `{"orderId":"mirakl-de-order-1","carrier":"GLS"}\n`);
      const result = await cli("shipments", "put", "--connection", "mirakl-de", "--file", file);
      expect(result).toMatchObject({ code: 0 });
      expect(result.out).toContain("shipments: 1 accepted, 0 refused");
    });
  });

  describe("usage", () => {
    test("a config without an activation section is a usage error (exit 2), before any request", async () => {
      await start();
      const config = activationConfig({ activationUrl: sim.url, stateDir: join(dir, "state") });
      delete config.activation;
      configPath = await writeActivationConfig(dir, config, "plain.json");
      const result = await cli("connections");
      expect(result.code).toBe(2);
      expect(result.err).toContain("has no `activation` section");
      expect(sim.requests).toEqual([]);
    });

    test("missing --connection, unknown subcommand: exit 2", async () => {
      await start();
      expect((await cli("orders")).code).toBe(2);
      expect((await cli("offers", "delete")).code).toBe(2);
      expect(existsSync(join(dir, "state"))).toBe(false);
    });
  });
});
