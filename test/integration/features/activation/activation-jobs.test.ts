import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Job } from "bullmq";
import { afterEach, describe, expect } from "vitest";
import { contentHash } from "../../../../src/core/json/canonical-json.js";
import { deliveryIdOf } from "../../../../src/features/activation/delivery-id.js";
import { runCli } from "../../../../src/cli/main.js";
import { ACTIVATION_QUEUE } from "../../../../src/jobs/queues/activation-queue.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { sampleOrder } from "../../../../sim/activation/activation-sample.js";
import { SIM_ACTIVATION_TOKEN, SIM_WEBHOOK_TOKEN } from "../../../../sim/activation/activation-simulator.js";
import { captureIo } from "../../../support/capture-io.js";
import { waitFor } from "../../../support/wait-for.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { overlapsInEvents, type QueueEvent } from "../../../support/worker-harness.js";
import { ACTIVATION_ENV, activationConfig, writeActivationConfig } from "./activation-test-config.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";
import { activationUnderTest, type ActivationUnderTest } from "../../../support/activation-under-test.js";

const TRIGGER_TOKEN = "trigger-token-0123456789abcdef";
const WEBHOOK_PATH = "/webhook/orders";

describe("Activation jobs (in-process worker, real Redis, Activation simulator)", () => {
  let fixtures: Pick<PimSyncFixtures, "redis" | "tempDir" | "workers"> & ActivationUnderTest;
  let worker: AppWorker | undefined;
  let configPath: string;
  const trigger = createTriggerClient(() => {
    if (!worker?.triggerUrl) throw new Error("the worker has no trigger endpoint");
    return worker.triggerUrl;
  });

  async function startWith(activation: Record<string, unknown>, options: { trigger?: boolean; token?: string } = {}): Promise<void> {
    const config = activationConfig({
      activationUrl: fixtures.sim.url,
      stateDir: join(fixtures.tempDir, "state"),
      redisPrefix: fixtures.redis.prefix,
      activation,
      ...(options.trigger ? { trigger: { port: 0, token: TRIGGER_TOKEN } } : {}),
    });
    configPath = await writeActivationConfig(fixtures.tempDir, config);
    const settings = parseSettings(JSON.stringify(config), "activation-jobs-test", {
      ACTIVATION_TOKEN: options.token ?? SIM_ACTIVATION_TOKEN,
    });
    worker = fixtures.workers.keep(await startAppWorker({ settings, logger: silentLogger() }));
  }

  const finished = (id: string, timeoutMs = 20_000): Promise<{ job: Job; state: string }> => fixtures.finished(id, timeoutMs);

  async function events(): Promise<QueueEvent[]> {
    const entries = await fixtures.redis.redis.xrange(`${fixtures.redis.prefix}:${ACTIVATION_QUEUE}:events`, "-", "+");
    return entries.map(([id, fields]) => {
      const event: Record<string, string> = { id };
      for (let i = 0; i + 1 < fields.length; i += 2) event[fields[i] as string] = fields[i + 1] as string;
      return event as unknown as QueueEvent;
    });
  }

  test.beforeEach(async ({ redis, tempDir, closeAfter, workers }) => {
    fixtures = { redis, tempDir, workers, ...(await activationUnderTest({ redis, closeAfter })) };
  });

  afterEach(() => {
    for (const answer of trigger.answers.splice(0)) expect(answer.text).not.toContain(SIM_ACTIVATION_TOKEN);
  });
  test("pulls each configured connection on the schedule into one NDJSON file per connection and UTC day, never two pulls at once", async () => {
    const ordersDir = join(fixtures.tempDir, "orders");
    await startWith({
      orders: { schedule: "* * * * * *", connections: ["amazon-fr", "mirakl-de"], sink: { type: "file", dir: ordersDir } },
    });
    const day = new Date().toISOString().slice(0, 10);
    const linesOf = async (connection: string): Promise<unknown[]> => {
      const text = await readFile(join(ordersDir, `${connection}-${day}.ndjson`), "utf8").catch(() => "");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { order: unknown }).order);
    };
    await waitFor(async () => (await linesOf("amazon-fr")).length === 7 && (await linesOf("mirakl-de")).length === 4, {
      timeoutMs: 20_000,
      what: "both files",
    });
    // Later scheduled pulls find nothing new; a changed order comes out once.
    const changed = { ...sampleOrder("amazon-fr", 3), data: { status: { code: "CANCELED" } } };
    fixtures.sim.upsertOrder("amazon-fr", changed);
    await waitFor(async () => (await linesOf("amazon-fr")).length === 8, { timeoutMs: 20_000, what: "the changed order" });
    const pulls = fixtures.sim.requests.filter(
      (request) => request.path.endsWith("/orders") && request.query.search_after === undefined,
    ).length;
    await waitFor(
      () =>
        fixtures.sim.requests.filter((request) => request.path.endsWith("/orders") && request.query.search_after === undefined).length >=
        pulls + 2,
      { timeoutMs: 20_000, what: "two more pulls" },
    );
    expect((await linesOf("amazon-fr")).at(-1)).toEqual(changed);
    expect(await linesOf("amazon-fr")).toHaveLength(8);
    expect(await readdir(ordersDir)).toEqual([`amazon-fr-${day}.ndjson`, `mirakl-de-${day}.ndjson`]);
    const schedulers = await fixtures.queue.queue.getJobSchedulers(0, -1);
    expect(schedulers.map((s) => s.key).sort()).toEqual(["activation-pull:amazon-fr", "activation-pull:mirakl-de"]);
    // Scheduled jobs are removed like every other job (a 5-minute cron must not fill Redis).
    for (const scheduler of schedulers)
      expect(scheduler.template?.opts).toMatchObject({ removeOnComplete: expect.anything(), removeOnFail: expect.anything() });
    const ran = await fixtures.queue.queue.getJobs(["completed"]);
    expect(ran.length).toBeGreaterThan(0);
    for (const job of ran) expect(job.opts).toMatchObject({ removeOnComplete: expect.anything(), removeOnFail: expect.anything() });
    expect(await fixtures.queue.queue.getGlobalConcurrency()).toBe(1);
    expect(overlapsInEvents(await events())).toEqual([]);
  });

  test("restores the queue's global concurrency and the pull schedules when Redis lost them", async () => {
    await startWith({
      orders: { schedule: "0 0 1 1 *", connections: ["amazon-fr"], sink: { type: "file", dir: join(fixtures.tempDir, "orders") } },
    });
    // What a Redis restart without persistence loses (a shared Redis here: only these keys go).
    await fixtures.redis.redis.hdel(`${fixtures.redis.prefix}:${ACTIVATION_QUEUE}:meta`, "concurrency");
    await fixtures.queue.queue.removeJobScheduler("activation-pull:amazon-fr");
    expect(await fixtures.queue.queue.getGlobalConcurrency()).toBeNull();

    await waitFor(
      async () =>
        (await fixtures.queue.queue.getGlobalConcurrency()) === 1 &&
        (await fixtures.queue.queue.getJobScheduler("activation-pull:amazon-fr")) !== undefined,
      { timeoutMs: 10_000, what: "the safety check to restore them" },
    );
  });

  test("connections: all schedules every connection the API lists", async () => {
    await startWith({
      orders: { schedule: "0 0 1 1 *", connections: "all", sink: { type: "file", dir: join(fixtures.tempDir, "orders") } },
    });
    const schedulers = await fixtures.queue.queue.getJobSchedulers(0, -1);
    expect(schedulers.map((s) => s.key).sort()).toEqual([
      "activation-pull:amazon-fr",
      "activation-pull:ebay-uk",
      "activation-pull:mirakl-de",
    ]);
  });

  test("`pim-sync enqueue activation-orders` runs a pull now; a webhook sink that fails fails the attempt, and the retry delivers only what was not delivered", async () => {
    await startWith({
      orders: {
        connections: ["amazon-fr"],
        sink: { type: "webhook", url: `${fixtures.sim.url}${WEBHOOK_PATH}`, token: SIM_WEBHOOK_TOKEN },
      },
    });
    // Two orders get through, then the webhook fails through every in-process retry.
    void fixtures.sim
      .waitForRequest(
        (request) => request.path === WEBHOOK_PATH && fixtures.sim.requests.filter((r) => r.path === WEBHOOK_PATH).length === 2,
        10_000,
      )
      .then(() => fixtures.sim.faults.failNext({ method: "POST", path: WEBHOOK_PATH }, { status: 500, times: 3 }));

    const io = captureIo(ACTIVATION_ENV);
    expect(await runCli(["enqueue", "activation-orders", "--config", configPath, "--connection", "amazon-fr", "--json"], io)).toBe(0);
    const answer = JSON.parse(io.out()) as { job_id: string; status: string };
    expect(answer.status).toBe("queued");
    expect(answer.job_id).toMatch(/^activation\//);
    const id = answer.job_id.slice("activation/".length);

    const { job, state } = await finished(id, 30_000);
    expect(state).toBe("completed");
    expect(job.attemptsMade).toBe(2);
    const deliveries = fixtures.sim.webhookDeliveries();
    const keys = new Set(deliveries.map((d) => d.idempotencyKey));
    expect(keys.size).toBe(7);
    // The Idempotency-Key is the body's delivery id.
    const first = sampleOrder("amazon-fr", 1);
    expect(deliveries[0]?.idempotencyKey).toBe(deliveryIdOf("amazon-fr", String(first.id), 1, contentHash(first)));
    for (const delivery of deliveries) expect(delivery.idempotencyKey).toBe((delivery.body as { delivery_id: string }).delivery_id);
    // The two delivered before the failure were recorded at once: the retry sent only the rest.
    expect(deliveries.filter((d) => d.duplicate)).toEqual([]);
    expect(deliveries.map((d) => (d.body as { order: unknown }).order)).toEqual(
      Array.from({ length: 7 }, (_, i) => sampleOrder("amazon-fr", i + 1)),
    );

    // The state advanced with the successful attempt: another pull delivers nothing.
    const again = captureIo(ACTIVATION_ENV);
    expect(await runCli(["enqueue", "activation-orders", "--config", configPath, "--connection", "amazon-fr", "--json"], again)).toBe(0);
    const second = (JSON.parse(again.out()) as { job_id: string }).job_id.slice("activation/".length);
    expect((await finished(second)).state).toBe("completed");
    expect(fixtures.sim.webhookDeliveries()).toHaveLength(deliveries.length);
  });

  test("a webhook answering 308 fails the pull at once (not followed); nothing counts as delivered, and the next pull delivers every order", async () => {
    await startWith({
      orders: {
        connections: ["amazon-fr"],
        sink: { type: "webhook", url: `${fixtures.sim.url}${WEBHOOK_PATH}`, token: SIM_WEBHOOK_TOKEN },
      },
    });
    fixtures.sim.faults.failNext(
      { method: "POST", path: WEBHOOK_PATH },
      { status: 308, body: {}, times: 50, headers: { location: "https://hooks.example/orders" } },
    );

    const io = captureIo(ACTIVATION_ENV);
    expect(await runCli(["enqueue", "activation-orders", "--config", configPath, "--connection", "amazon-fr", "--json"], io)).toBe(0);
    const id = (JSON.parse(io.out()) as { job_id: string }).job_id.slice("activation/".length);
    const { job, state } = await finished(id, 30_000);
    expect(state).toBe("failed");
    // Permanent: one attempt, one POST (the first order), not followed to hooks.example.
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain("308 redirect to https://hooks.example, not followed");
    expect(fixtures.sim.requests.filter((r) => r.path === WEBHOOK_PATH)).toHaveLength(1);
    expect(fixtures.sim.webhookDeliveries()).toEqual([]);

    fixtures.sim.faults.clear();
    const again = captureIo(ACTIVATION_ENV);
    expect(await runCli(["enqueue", "activation-orders", "--config", configPath, "--connection", "amazon-fr", "--json"], again)).toBe(0);
    const second = (JSON.parse(again.out()) as { job_id: string }).job_id.slice("activation/".length);
    expect((await finished(second, 30_000)).state).toBe("completed");
    expect(fixtures.sim.webhookDeliveries().map((d) => (d.body as { order: unknown }).order)).toEqual(
      Array.from({ length: 7 }, (_, i) => sampleOrder("amazon-fr", i + 1)),
    );
  });

  test("a pull with a refused token fails at once, naming the header, never the token", async () => {
    await startWith({ orders: { connections: ["amazon-fr"] } }, { token: "wrong-token-value" });
    const enqueued = await fixtures.queue.enqueue("activation.orders.pull", { connection: "amazon-fr" });
    const { job, state } = await finished(enqueued.jobId);
    expect(state).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain("`access_token` header");
    expect(job.failedReason).not.toContain("wrong-token-value");
    expect(JSON.stringify(job.data)).not.toContain("wrong-token-value");
  });

  test("a repeated cursor fails the pull at once (no loop, no retry)", async () => {
    await startWith({ orders: { connections: ["amazon-fr"], sink: { type: "file", dir: join(fixtures.tempDir, "orders") } } });
    fixtures.sim.repeatCursorOnce("amazon-fr");
    const enqueued = await fixtures.queue.enqueue("activation.orders.pull", { connection: "amazon-fr" });
    const { job, state } = await finished(enqueued.jobId);
    expect(state).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/cursor .* again/);
    await expect(readdir(join(fixtures.tempDir, "orders"))).rejects.toThrow();
  });

  describe("trigger routes", () => {
    const offers = [
      { sku: "SKU-1", stock: 3 },
      { sku: "SKU-2", stock: 0 },
    ];

    test("POST /v1/activation/offers queues an activation.offers.put job that sends the offers; an Idempotency-Key makes repeats one job", async () => {
      await startWith({ offers: { batch_size: 1 } }, { trigger: true });
      const headers = { "idempotency-key": "offers-42" };
      const answer = await trigger.call("/v1/activation/offers", {
        token: TRIGGER_TOKEN,
        body: { connection: "amazon-fr", offers },
        headers,
      });
      expect(answer.status).toBe(202);
      const body = answer.json as { job_id: string; status: string };
      expect(body.status).toBe("queued");
      const repeat = await trigger.call("/v1/activation/offers", {
        token: TRIGGER_TOKEN,
        body: { connection: "amazon-fr", offers },
        headers,
      });
      expect(repeat.json).toEqual({ job_id: body.job_id, status: "duplicate" });
      // The same key with another body is refused, naming the first job; nothing is queued.
      const reused = await trigger.call("/v1/activation/offers", {
        token: TRIGGER_TOKEN,
        body: { connection: "amazon-fr", offers: [offers[0]] },
        headers,
      });
      expect(reused.status).toBe(422);
      expect(reused.json).toEqual({ errors: [expect.stringContaining(`already used for another request body (job ${body.job_id})`)] });

      const { job, state } = await finished(body.job_id.slice("activation/".length));
      expect(state).toBe("completed");
      expect(job.returnvalue).toMatchObject({ sent: 2, skipped: 0, batches: 2 });
      expect(fixtures.sim.offerBatches("amazon-fr")).toEqual([[offers[0]], [offers[1]]]);
    });

    test("POST /v1/activation/shipments queues an activation.shipment.update job; a refused shipment fails it at once", async () => {
      await startWith({}, { trigger: true });
      const shipment = { orderId: "amazon-fr-order-1", carrier: "UPS", trackingNumber: "1Z" };
      const ok = await trigger.call("/v1/activation/shipments", { token: TRIGGER_TOKEN, body: { connection: "amazon-fr", shipment } });
      expect(ok.status).toBe(202);
      expect((await finished((ok.json as { job_id: string }).job_id.slice("activation/".length))).state).toBe("completed");
      expect(fixtures.sim.shipments("amazon-fr")).toEqual([shipment]);

      const refused = await trigger.call("/v1/activation/shipments", {
        token: TRIGGER_TOKEN,
        body: { connection: "amazon-fr", shipment: { orderId: "amazon-fr-order-99" } },
      });
      const ref = (refused.json as { job_id: string }).job_id;
      const { job, state } = await finished(ref.slice("activation/".length));
      expect(state).toBe("failed");
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toContain('Order \\"amazon-fr-order-99\\" not found');

      // Listed with the failed jobs, and replayed once the order exists.
      const list = captureIo(ACTIVATION_ENV);
      expect(await runCli(["jobs", "list", "--config", configPath, "--state", "failed", "--json"], list)).toBe(0);
      expect(
        (JSON.parse(list.out()) as { ref: string; name: string; project: number | null }[]).map((j) => [j.ref, j.name, j.project]),
      ).toEqual([[ref, "activation.shipment.update", null]]);
      fixtures.sim.upsertOrder("amazon-fr", sampleOrder("amazon-fr", 99));
      const retry = captureIo(ACTIVATION_ENV);
      expect(await runCli(["jobs", "retry", "--config", configPath, "--all-failed"], retry)).toBe(0);
      expect(retry.out()).toBe(`${ref}: retried\n`);
      expect((await finished(ref.slice("activation/".length))).state).toBe("completed");
      expect(fixtures.sim.shipments("amazon-fr")).toEqual([shipment, { orderId: "amazon-fr-order-99" }]);
    });

    test("400 lists every reason (shape and unknown connection, checked against the API's list); 401 without the token", async () => {
      await startWith({}, { trigger: true });
      const bad = await trigger.call("/v1/activation/offers", {
        token: TRIGGER_TOKEN,
        body: { connection: "nowhere", offers: "many", extra: 1 },
      });
      expect(bad.status).toBe(400);
      const errors = (bad.json as { errors: string[] }).errors;
      expect(errors).toContain("connection: 'nowhere' is not a channel connection of this Activation account");
      expect(errors.some((e) => e.startsWith("offers:"))).toBe(true);
      expect(errors.some((e) => e.includes("extra"))).toBe(true);
      const noShipment = await trigger.call("/v1/activation/shipments", { token: TRIGGER_TOKEN, body: { connection: "amazon-fr" } });
      expect(noShipment.status).toBe(400);
      expect((noShipment.json as { errors: string[] }).errors.some((e) => e.startsWith("shipment:"))).toBe(true);
      expect((await trigger.call("/v1/activation/offers", { body: { connection: "amazon-fr", offers } })).status).toBe(401);
      // An offer without offers.key (sku): refused here, naming it, rather than failing a job.
      const noKey = await trigger.call("/v1/activation/offers", {
        token: TRIGGER_TOKEN,
        body: { connection: "amazon-fr", offers: [{ sku: "A" }, { stock: 1 }] },
      });
      expect(noKey.status).toBe(400);
      expect((noKey.json as { errors: string[] }).errors).toEqual([
        "offers: offers.key 'sku': offer(s) 2 have no 'sku' (a non-empty string or a number)",
      ]);
      // The list was read once and cached, then once more before refusing 'nowhere'.
      expect(fixtures.sim.requests.filter((r) => r.path === "/v1/channel-connections").length).toBeLessThanOrEqual(2);
      expect(await fixtures.queue.queue.getJobCounts()).toMatchObject({ waiting: 0, active: 0, completed: 0, failed: 0 });
    });
  });
});
