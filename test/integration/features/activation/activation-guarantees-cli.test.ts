import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli/main.js";
import { createActivationQueue } from "../../../../src/jobs/queues/activation-queue.js";
import { sampleOrder } from "../../../../sim/activation/activation-sample.js";
import {
  SIM_ACTIVATION_TOKEN,
  startActivationSimulator,
  type ActivationSimulator,
} from "../../../../sim/activation/activation-simulator.js";
import { captureIo } from "../../../support/capture-io.js";
import { startOwnRedisServer, type OwnRedisServer } from "../../../../testkit/own-redis-server.js";
import { assertCliBuilt, killLeftoverProcesses, spawnCli, waitForExit } from "../../../support/process-cli.js";
import { waitFor } from "../../../support/wait-for.js";
import { createConfigSafeTestRedis } from "../../../support/process-redis.js";
import type { TestRedis } from "../../../support/redis.js";
import { ACTIVATION_ENV, activationConfig, writeActivationConfig } from "./activation-test-config.js";

const DAY_MS = 86_400_000;

interface DeliveryLine {
  readonly delivery_id: string;
  readonly order_id: string;
  readonly version: number;
  readonly order: unknown;
}

describe("Activation guarantees over the CLI (real Redis, Activation simulator)", () => {
  let sim: ActivationSimulator;
  let dir: string;
  let redis: TestRedis;
  let configPath: string;

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIo(ACTIVATION_ENV);
    const code = await runCli([...args, "--config", configPath], io);
    return { code, out: io.out(), err: io.err() };
  }

  const key = (what: string): string => `${redis.prefix}:activation:amazon-fr:${what}`;

  beforeEach(async () => {
    sim = await startActivationSimulator();
    redis = await createConfigSafeTestRedis();
    dir = await mkdtemp(join(tmpdir(), "pim-sync-activation-guarantees-"));
    configPath = await writeActivationConfig(
      dir,
      activationConfig({ activationUrl: sim.url, stateDir: join(dir, "state"), redisPrefix: redis.prefix }),
    );
  });

  afterEach(async () => {
    await killLeftoverProcesses();
    await sim.close();
    await redis.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  describe("offers", () => {
    const putStock = async (stock: number): Promise<string> => {
      const file = join(dir, "offers.ndjson");
      await writeFile(file, `${JSON.stringify({ sku: "SKU-1", price: { amount: 10, currency: "EUR" }, stock })}\n`);
      const result = await cli("activation", "offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(result.code, result.err).toBe(0);
      return result.out;
    };

    it("an offer that returns to an earlier value is sent: stock 5, 0, then 5 leaves the marketplace at 5; one state entry per offer", async () => {
      expect(await putStock(5)).toContain("offers: 1 sent, 0 skipped");
      expect(await putStock(0)).toContain("offers: 1 sent, 0 skipped");
      expect(await putStock(5)).toContain("offers: 1 sent, 0 skipped");
      expect(sim.currentOffers("amazon-fr")).toMatchObject({ "SKU-1": { stock: 5 } });
      // Unchanged since the last accepted: skipped.
      expect(await putStock(5)).toContain("offers: 0 sent, 1 skipped");
      expect(sim.offerBatches("amazon-fr")).toHaveLength(3);
      expect(await redis.redis.hlen(key("offer-hashes"))).toBe(1);
      expect(await redis.redis.zcard(key("offers-accepted"))).toBe(1);
    });

    it("an offer without offers.key is a usage error naming the offer and the field; nothing is sent", async () => {
      const file = join(dir, "offers.ndjson");
      await writeFile(file, `${JSON.stringify({ sku: "SKU-1", stock: 1 })}\n${JSON.stringify({ stock: 2 })}\n`);
      const result = await cli("activation", "offers", "put", "--connection", "amazon-fr", "--file", file);
      expect(result.code).toBe(2);
      expect(result.err).toContain("offers.key 'sku': offer(s) 2 have no 'sku'");
      expect(sim.requests.filter((request) => request.method === "PUT")).toEqual([]);
    });
  });

  describe("state retention", () => {
    it("orders no pull has listed for orders.retention_days are forgotten; orders still listed are kept however old", async () => {
      expect((await cli("activation", "orders", "--connection", "amazon-fr")).code).toBe(0);
      expect(await redis.redis.hlen(key("orders"))).toBe(7);
      // As if orders 1 and 2 were last listed 91 days ago (retention: 90); the API no longer lists order 1.
      const old = Date.now() - 91 * DAY_MS;
      await redis.redis.zadd(key("orders-listed"), old, "amazon-fr-order-1", old, "amazon-fr-order-2");
      sim.removeOrder("amazon-fr", "amazon-fr-order-1");
      const pull = await cli("activation", "orders", "--connection", "amazon-fr");
      expect(pull.out).toBe("");
      expect(await redis.redis.hkeys(key("orders"))).toEqual(expect.not.arrayContaining(["amazon-fr-order-1"]));
      expect(await redis.redis.hlen(key("orders"))).toBe(6);
      expect(await redis.redis.zcard(key("orders-listed"))).toBe(6);
      expect(Number(await redis.redis.zscore(key("orders-listed"), "amazon-fr-order-2"))).toBeGreaterThan(old);
    });

    it("offers not accepted again for offers.retention_days are forgotten (their next put is sent)", async () => {
      configPath = await writeActivationConfig(
        dir,
        activationConfig({
          activationUrl: sim.url,
          stateDir: join(dir, "state"),
          redisPrefix: redis.prefix,
          activation: { offers: { retention_days: 2 } },
        }),
        "short.json",
      );
      const file = join(dir, "offers.ndjson");
      const put = async (...skus: string[]): Promise<string> => {
        await writeFile(file, skus.map((sku) => JSON.stringify({ sku, stock: 1 })).join("\n"));
        return (await cli("activation", "offers", "put", "--connection", "amazon-fr", "--file", file)).out;
      };
      expect(await put("A", "B")).toContain("2 sent");
      await redis.redis.zadd(key("offers-accepted"), Date.now() - 3 * DAY_MS, "A");
      expect(await put("C")).toContain("1 sent");
      expect(await redis.redis.hkeys(key("offer-hashes"))).toEqual(expect.arrayContaining(["B", "C"]));
      expect(await redis.redis.hlen(key("offer-hashes"))).toBe(2);
      expect(await put("A", "B")).toContain("offers: 1 sent, 1 skipped");
    });
  });

  describe("unknown connections", () => {
    it("`activation orders --connection nope`: exit 2, naming the known connections", async () => {
      const result = await cli("activation", "orders", "--connection", "nope");
      expect(result.code).toBe(2);
      expect(result.err).toContain(
        "connection 'nope' is not a channel connection of this Activation account; known: amazon-fr, mirakl-de, ebay-uk",
      );
    });

    it("`enqueue activation-orders --connection nope`: exit 2 naming it, nothing queued; a known one is queued", async () => {
      const result = await cli("enqueue", "activation-orders", "--connection", "nope");
      expect(result.code).toBe(2);
      expect(result.err).toContain("connection 'nope' is not a channel connection");
      const queue = createActivationQueue({
        connection: redis.redis,
        prefix: redis.prefix,
        retention: { keep_completed_days: 1, keep_failed_days: 1 },
      });
      try {
        expect(await queue.queue.getJobCounts()).toMatchObject({ waiting: 0, delayed: 0, active: 0 });
        expect((await cli("enqueue", "activation-orders", "--connection", "amazon-fr")).code).toBe(0);
        expect((await queue.queue.getJobCounts()).waiting).toBe(1);
      } finally {
        await queue.close();
      }
    });
  });

  describe("delivery ids (at least once)", () => {
    let own: OwnRedisServer;

    beforeEach(async () => {
      assertCliBuilt();
      own = await startOwnRedisServer();
    });
    afterEach(async () => {
      await own.close();
    });

    it("a puller SIGKILLed between the append and the state save appends the same orders again on the next pull, with the same delivery ids", async () => {
      const config = {
        ...activationConfig({ activationUrl: sim.url, stateDir: join(dir, "state") }),
        redis: { url: own.url, prefix: "kill" },
      };
      configPath = await writeActivationConfig(dir, config, "own-redis.json");
      const out = join(dir, "orders.ndjson");
      const lines = async (): Promise<DeliveryLine[]> =>
        (await readFile(out, "utf8").catch(() => ""))
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as DeliveryLine);

      const admin = new Redis(own.url, { maxRetriesPerRequest: 1 });
      try {
        // Reads go on, writes wait: the state save after the append cannot happen before the kill.
        await admin.call("CLIENT", "PAUSE", "120000", "WRITE");
        const puller = spawnCli(["activation", "orders", "--config", configPath, "--connection", "amazon-fr", "--out", out], {
          env: { ACTIVATION_TOKEN: SIM_ACTIVATION_TOKEN },
        });
        await waitFor(async () => (await lines()).length === 7, { timeoutMs: 30_000, what: "the puller to append 7 lines" });
        puller.signal("SIGKILL");
        expect((await waitForExit(puller, 15_000)).signal).toBe("SIGKILL");
        await admin.call("CLIENT", "UNPAUSE");
        expect(await admin.hlen("kill:activation:amazon-fr:orders")).toBe(0);

        const again = await cli("activation", "orders", "--connection", "amazon-fr", "--out", out);
        expect(again.code, again.err).toBe(0);
        const all = await lines();
        expect(all).toHaveLength(14);
        const [first, second] = [all.slice(0, 7), all.slice(7)];
        expect(second.map((line) => line.delivery_id)).toEqual(first.map((line) => line.delivery_id));
        expect(new Set(first.map((line) => line.delivery_id)).size).toBe(7);
        expect(second.map((line) => line.order)).toEqual(Array.from({ length: 7 }, (_, i) => sampleOrder("amazon-fr", i + 1)));

        // Recorded now: nothing more; a changed order is a new version with a new delivery id.
        expect((await cli("activation", "orders", "--connection", "amazon-fr", "--out", out)).code).toBe(0);
        expect(await lines()).toHaveLength(14);
        sim.upsertOrder("amazon-fr", { ...sampleOrder("amazon-fr", 2), data: { status: { code: "SHIPPED" } } });
        expect((await cli("activation", "orders", "--connection", "amazon-fr", "--out", out)).code).toBe(0);
        const changed = (await lines()).at(-1);
        expect(changed).toMatchObject({ order_id: "amazon-fr-order-2", version: 2 });
        expect(first.map((line) => line.delivery_id)).not.toContain(changed?.delivery_id);
      } finally {
        await admin.call("CLIENT", "UNPAUSE").catch(() => undefined);
        admin.disconnect();
      }
    });
  });
});
