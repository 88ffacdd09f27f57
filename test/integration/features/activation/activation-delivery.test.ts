import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Job } from "bullmq";
import { afterEach, describe, expect } from "vitest";
import type { RefusedOrder } from "../../../../src/features/activation/activation-state-store.js";
import { runCli } from "../../../../src/cli/main.js";
import { ACTIVATION_QUEUE } from "../../../../src/jobs/queues/activation-queue.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { sampleOrder } from "../../../../sim/activation/activation-sample.js";
import { SIM_ACTIVATION_TOKEN, SIM_WEBHOOK_TOKEN } from "../../../../sim/activation/activation-simulator.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { captureIo } from "../../../support/capture-io.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { ACTIVATION_ENV, activationConfig, writeActivationConfig } from "./activation-test-config.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";
import { activationUnderTest, type ActivationUnderTest } from "../../../support/activation-under-test.js";

const TRIGGER_TOKEN = "delivery-test-trigger-token-0123";
const METRICS_TOKEN = "delivery-test-metrics-token-0123";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const WEBHOOK_PATH = "/webhook/orders";

/** The value of one sample line (`name{labels} value`) of a scrape, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

interface WebhookBody {
  readonly delivery_id: string;
  readonly order_id: string;
  readonly order: unknown;
}

describe("Activation delivery guarantees (in-process worker, real Redis, Activation simulator)", () => {
  let fixtures: Pick<PimSyncFixtures, "redis" | "tempDir" | "workers"> & ActivationUnderTest;
  let worker: AppWorker | undefined;
  let configPath: string;
  const http = createTriggerClient(() => {
    if (!worker?.serverUrl) throw new Error("the worker has no HTTP server");
    return worker.serverUrl;
  });

  async function startWith(activation: Record<string, unknown>, options: { readonly withoutProject?: boolean } = {}): Promise<void> {
    const base = activationConfig({
      activationUrl: fixtures.sim.url,
      stateDir: join(fixtures.tempDir, "state"),
      redisPrefix: fixtures.redis.prefix,
      activation,
      trigger: { token: TRIGGER_TOKEN },
    });
    const config: Record<string, unknown> = {
      ...base,
      server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN, admin: { users: [ADMIN] } },
    };
    if (options.withoutProject) delete config.projects;
    configPath = await writeActivationConfig(fixtures.tempDir, config);
    const settings = parseSettings(JSON.stringify(config), "activation-delivery-test", ACTIVATION_ENV);
    worker = fixtures.workers.keep(await startAppWorker({ settings, logger: silentLogger() }));
  }

  const finished = (id: string, timeoutMs = 30_000): Promise<{ job: Job; state: string }> => fixtures.finished(id, timeoutMs);

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIo(ACTIVATION_ENV);
    const code = await runCli([...args, "--config", configPath], io);
    return { code, out: io.out(), err: io.err() };
  }

  /** Enqueues through the CLI (`enqueue activation-orders` or `activation resend`) and waits for the job. */
  async function runJob(...args: string[]): Promise<{ job: Job; state: string }> {
    const result = await cli(...args, "--json");
    expect(result.code, result.err).toBe(0);
    const ref = (JSON.parse(result.out) as { job_id: string }).job_id;
    return finished(ref.slice(`${ACTIVATION_QUEUE}/`.length));
  }

  async function scrape(): Promise<string> {
    const answer = await http.call("/metrics", { token: METRICS_TOKEN });
    expect(answer.status).toBe(200);
    return answer.text;
  }

  test.beforeEach(async ({ redis, tempDir, closeAfter, workers }) => {
    fixtures = { redis, tempDir, workers, ...(await activationUnderTest({ redis, closeAfter })) };
  });

  afterEach(() => {
    for (const answer of http.answers.splice(0)) expect(answer.text).not.toContain(SIM_ACTIVATION_TOKEN);
  });
  test("a refused order is set aside with its reason and the pull goes on in order; it is listed (CLI, admin API), counted, not sent again by later pulls, and re-sent on request under its delivery id", async () => {
    await startWith({
      orders: {
        connections: ["amazon-fr"],
        sink: { type: "webhook", url: `${fixtures.sim.url}${WEBHOOK_PATH}`, token: SIM_WEBHOOK_TOKEN },
      },
    });
    fixtures.sim.refuseWebhookOrder("amazon-fr-order-3");

    const pull = await runJob("enqueue", "activation-orders", "--connection", "amazon-fr");
    expect(pull.state).toBe("completed");
    expect(pull.job.attemptsMade).toBe(1);
    const bodies = (): WebhookBody[] => fixtures.sim.webhookDeliveries().map((delivery) => delivery.body as WebhookBody);
    expect(bodies().map((body) => body.order_id)).toEqual([1, 2, 4, 5, 6, 7].map((n) => `amazon-fr-order-${n}`));
    const refusals = (): number =>
      fixtures.sim.requests.filter((request) => request.path === WEBHOOK_PATH && request.status === 422).length;
    expect(refusals()).toBe(1);

    // Listed with its reason, by the CLI and the admin API.
    const listed = await cli("activation", "refused", "--json");
    expect(listed.code).toBe(0);
    const [entry, ...others] = JSON.parse(listed.out) as RefusedOrder[];
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      connection: "amazon-fr",
      order_id: "amazon-fr-order-3",
      status: 422,
      version: 1,
      order: sampleOrder("amazon-fr", 3),
    });
    expect(entry?.reason).toContain("unknown customer");
    expect((await cli("activation", "refused")).out).toContain("amazon-fr\tamazon-fr-order-3\t");
    const api = await http.call("/admin/api/activation/refused?connection=amazon-fr", { token: ADMIN.token });
    expect(api.status).toBe(200);
    expect(api.json).toEqual({ refused: [entry] });

    // A later pull neither blocks on it nor sends it again.
    fixtures.sim.upsertOrder("amazon-fr", sampleOrder("amazon-fr", 8));
    expect((await runJob("enqueue", "activation-orders", "--connection", "amazon-fr")).state).toBe("completed");
    expect(
      bodies()
        .map((body) => body.order_id)
        .at(-1),
    ).toBe("amazon-fr-order-8");
    expect(refusals()).toBe(1);

    const metrics = await scrape();
    expect(sample(metrics, 'pim_sync_activation_orders_total{connection="amazon-fr",outcome="refused"}')).toBe(1);
    expect(sample(metrics, 'pim_sync_activation_orders_total{connection="amazon-fr",outcome="delivered"}')).toBe(7);
    expect(sample(metrics, 'pim_sync_activation_orders_total{connection="amazon-fr",outcome="pulled"}')).toBe(15);

    // Re-sent on request once the receiver takes it: the same delivery id, and the list is empty.
    fixtures.sim.acceptWebhookOrder("amazon-fr-order-3");
    const resend = await runJob("activation", "resend", "--connection", "amazon-fr", "--order", "amazon-fr-order-3");
    expect(resend.state).toBe("completed");
    expect(resend.job.returnvalue).toMatchObject({ delivered: ["amazon-fr-order-3"], refused_again: [], not_found: [] });
    const resent = fixtures.sim.webhookDeliveries().at(-1);
    expect(resent?.body).toMatchObject({
      order_id: "amazon-fr-order-3",
      delivery_id: entry?.delivery_id,
      order: sampleOrder("amazon-fr", 3),
    });
    expect(resent?.idempotencyKey).toBe(entry?.delivery_id);
    expect(JSON.parse((await cli("activation", "refused", "--json")).out)).toEqual([]);
    expect(sample(await scrape(), 'pim_sync_activation_orders_total{connection="amazon-fr",outcome="resent"}')).toBe(1);

    // The admin API queues a re-send too (POST only); bad bodies are refused naming the field.
    const queued = await http.call("/admin/api/activation/refused/amazon-fr/resend", { token: ADMIN.token, body: {} });
    expect(queued.status).toBe(202);
    expect((await finished((queued.json as { job_id: string }).job_id.slice(`${ACTIVATION_QUEUE}/`.length))).job.returnvalue).toMatchObject(
      { delivered: [] },
    );
    const bad = await http.call("/admin/api/activation/refused/amazon-fr/resend", { token: ADMIN.token, body: { order_ids: [] } });
    expect(bad.status).toBe(400);
    expect((bad.json as { errors: string[] }).errors[0]).toMatch(/^order_ids: /);
    expect((await http.call("/admin/api/activation/refused/amazon-fr/resend", { token: ADMIN.token })).status).toBe(405);
  });

  test("the Activation queue is on the dashboard and in pim_sync_jobs; offers, shipments and failed Activation jobs are counted", async () => {
    await startWith({ offers: { batch_size: 1 } });
    const offers = [
      { sku: "SKU-1", stock: 3 },
      { sku: "SKU-2", stock: 0 },
    ];
    const enqueue = async (path: string, body: unknown): Promise<{ job: Job; state: string }> => {
      const answer = await http.call(path, { token: TRIGGER_TOKEN, body });
      expect(answer.status).toBe(202);
      return finished((answer.json as { job_id: string }).job_id.slice(`${ACTIVATION_QUEUE}/`.length));
    };
    expect((await enqueue("/v1/activation/offers", { connection: "amazon-fr", offers })).state).toBe("completed");
    expect((await enqueue("/v1/activation/offers", { connection: "amazon-fr", offers })).state).toBe("completed");
    expect((await enqueue("/v1/activation/shipments", { connection: "amazon-fr", shipment: { orderId: "amazon-fr-order-1" } })).state).toBe(
      "completed",
    );
    expect(
      (await enqueue("/v1/activation/shipments", { connection: "amazon-fr", shipment: { orderId: "amazon-fr-order-99" } })).state,
    ).toBe("failed");

    const board = await http.call("/admin/api/queues", { token: ADMIN.token });
    expect(board.status).toBe(200);
    expect((board.json as { queues: { name: string }[] }).queues.map((q) => q.name)).toContain(ACTIVATION_QUEUE);

    const metrics = await scrape();
    expect(sample(metrics, 'pim_sync_jobs{project="activation",queue_state="completed"}')).toBe(3);
    expect(sample(metrics, 'pim_sync_jobs{project="activation",queue_state="failed"}')).toBe(1);
    expect(sample(metrics, 'pim_sync_activation_offers_total{connection="amazon-fr",outcome="sent"}')).toBe(2);
    expect(sample(metrics, 'pim_sync_activation_offers_total{connection="amazon-fr",outcome="skipped"}')).toBe(2);
    expect(sample(metrics, 'pim_sync_activation_shipments_total{connection="amazon-fr",outcome="accepted"}')).toBe(1);
    expect(sample(metrics, 'pim_sync_activation_shipments_total{connection="amazon-fr",outcome="refused"}')).toBe(1);
    expect(sample(metrics, 'pim_sync_activation_runs_total{job="activation.shipment.update",outcome="failed_permanently"}')).toBe(1);
    expect(sample(metrics, 'pim_sync_activation_runs_total{job="activation.offers.put",outcome="ok"}')).toBe(2);
    // The project's series are there as before.
    expect(sample(metrics, 'pim_sync_jobs{project="67",queue_state="completed"}')).toBe(0);
  });

  test("an Activation-only deployment (no project in the config) runs the worker and pulls", async () => {
    const ordersDir = join(fixtures.tempDir, "orders");
    await startWith({ orders: { connections: ["mirakl-de"], sink: { type: "file", dir: ordersDir } } }, { withoutProject: true });
    expect(worker?.queues.projects).toEqual([]);
    expect((await runJob("enqueue", "activation-orders", "--connection", "mirakl-de")).state).toBe("completed");
    const day = new Date().toISOString().slice(0, 10);
    const lines = (await readFile(join(ordersDir, `mirakl-de-${day}.ndjson`), "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as WebhookBody).order)).toEqual([1, 2, 3, 4].map((n) => sampleOrder("mirakl-de", n)));
    expect((await http.call("/readyz")).status).toBe(200);
  });
});
