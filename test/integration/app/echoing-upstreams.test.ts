import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Queue } from "bullmq";
import { beforeAll, describe, expect } from "vitest";
import { ACTIVATION_QUEUE } from "../../../src/jobs/queues/activation-queue.js";
import type { JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { queueNameOf } from "../../../src/infra/redis/queue-names.js";
import { SIM_ACTIVATION_TOKEN, type ActivationSimulator } from "../../../sim/activation/activation-simulator.js";
import type { RunningSimulators } from "../../../sim/start-simulators.js";
import { startEchoServer, type EchoServer } from "../../support/echo-server.js";
import { assertCliBuilt, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { SIM_CREDENTIALS } from "../../support/process-config.js";
import { waitFor } from "../../support/wait-for.js";
import type { TestRedis } from "../../support/redis.js";
import { TEST_REDIS_URL } from "../../support/redis.js";
import { leakedSecrets } from "../../support/secret-leaks.js";
import { test, type CliFixture } from "../../support/fixtures.js";

/** Every credential of the configs below; some with characters that encodings change. */
const SECRETS = {
  pimClientId: "echo-client-67",
  pimSecret: "pim/secret+67 x",
  pimUsername: "echo-user-67",
  pimPassword: "pim-pass:67&more",
  serviceEmail: "ops68@example.com",
  servicePassword: "svc-login/pass+68",
  serviceToken: "svc-token-69-abcdef",
  webhookToken: "webhook-token/70+x",
  activationToken: "act-token/71+xyz",
  triggerToken: "trigger-token-0123456789+/x",
  adminPassword: "admin-pass-123456/+",
  adminToken: "admin-token-0123456789abc",
  metricsToken: "metrics-token-0123456789",
} as const;
const ALL_SECRETS: readonly string[] = Object.values(SECRETS);
const ADMIN = { name: "ops", password: SECRETS.adminPassword };

/** Odd requests 500 (retried), even ones 400 (not): both kinds of echo reach the errors. */
const fiveHundredThenFourHundred = (n: number): number => (n % 2 === 1 ? 500 : 400);

describe("upstreams that echo the request (PIM, its token endpoint, service, its login, Activation API, webhook)", () => {
  let cli: CliFixture;
  let sims: RunningSimulators;
  let activationSim: ActivationSimulator;
  let echoes: { pim: EchoServer; service: EchoServer; activation: EchoServer; webhook: EchoServer };
  let redis: TestRedis;
  let queues: JobQueues;
  let activationQueue: Queue;
  let dir: string;

  beforeAll(() => assertCliBuilt());
  test.override("queueProjects", [67, 68, 69]);
  test.beforeEach(async ({ sims: simulators, redis: testRedis, tempDir, queues: projectQueues, closeAfter, cli: processes }) => {
    cli = processes;
    sims = simulators;
    activationSim = sims.activation;
    echoes = {
      pim: closeAfter(await startEchoServer(fiveHundredThenFourHundred)),
      service: closeAfter(await startEchoServer(fiveHundredThenFourHundred)),
      activation: closeAfter(await startEchoServer(fiveHundredThenFourHundred)),
      webhook: closeAfter(await startEchoServer(fiveHundredThenFourHundred)),
    };
    redis = testRedis;
    queues = projectQueues;
    activationQueue = closeAfter(new Queue(ACTIVATION_QUEUE, { connection: redis.redis, prefix: redis.prefix }));
    dir = tempDir;
  });

  /**
   * The worker's config: project 67 reads an echoing PIM (token endpoint included), 68 logs in
   * to an echoing service, 69 lists an echoing service with a token; orders go to an echoing
   * webhook. The rest are the simulators, so each job gets as far as its echoing upstream.
   */
  function workerConfig(): Record<string, unknown> {
    const simPim = { url: sims.pim.url, ...SIM_CREDENTIALS.pim };
    return {
      redis: { url: TEST_REDIS_URL, prefix: redis.prefix },
      state_dir: join(dir, "state"),
      log_level: "debug",
      http: { timeout_ms: 5_000, max_attempts: 3, base_delay_ms: 10, max_delay_ms: 50, max_retry_after_ms: 1_000 },
      worker: { lock_duration_ms: 5_000, shutdown_timeout_ms: 10_000 },
      server: { port: 0, metrics_token: SECRETS.metricsToken, admin: { users: [{ ...ADMIN, role: "admin", token: SECRETS.adminToken }] } },
      trigger: { token: SECRETS.triggerToken },
      projects: [
        {
          id: 67,
          pim: {
            url: echoes.pim.origin,
            client_id: SECRETS.pimClientId,
            secret: SECRETS.pimSecret,
            username: SECRETS.pimUsername,
            password: SECRETS.pimPassword,
          },
          service: { url: sims.service.url, token: SIM_CREDENTIALS.serviceToken },
        },
        { id: 68, pim: simPim, service: { url: echoes.service.origin, email: SECRETS.serviceEmail, password: SECRETS.servicePassword } },
        {
          id: 69,
          pim: simPim,
          service: { url: echoes.service.origin, token: SECRETS.serviceToken },
          allowed_options_for_pim_attribute_addition: ["color"],
        },
      ],
      activation: {
        url: activationSim.url,
        pim_connection_id: "sim-pim-connection",
        access_token: SIM_ACTIVATION_TOKEN,
        orders: {
          connections: ["amazon-fr"],
          sink: { type: "webhook", url: `${echoes.webhook.origin}/orders`, token: SECRETS.webhookToken },
        },
      },
    };
  }

  async function run(args: readonly string[]): Promise<{ code: number | null; output: string }> {
    const proc = cli.spawn(args);
    const exit = await waitForExit(proc, 60_000);
    return { code: exit.code, output: `${proc.stdout()}\n${proc.stderr()}` };
  }

  async function refOf(args: readonly string[]): Promise<string> {
    const { code, output } = await run(args);
    expect(code).toBe(0);
    return (JSON.parse(output.trim().split("\n")[0] ?? "{}") as { job_id: string }).job_id;
  }

  async function failedReasonOf(ref: string): Promise<string> {
    const [project, id] = ref.split("/") as [string, string];
    const queue = project === "activation" ? activationQueue : queues.queueFor(Number(project));
    return waitFor(
      async () => {
        if ((await queue.getJobState(id)) !== "failed") return undefined;
        return (await queue.getJob(id))?.failedReason;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `job ${ref} to fail` },
    );
  }

  /** The pull completes: the webhook's 400 sets each order aside, with the (echoing) reason recorded. */
  async function refusedReasonsOf(ref: string, configPath: string): Promise<string> {
    const id = ref.split("/")[1] ?? "";
    await waitFor(async () => ((await activationQueue.getJobState(id)) === "completed" ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: `job ${ref} to complete`,
    });
    const { code, output } = await run(["activation", "refused", "--config", configPath, "--json"]);
    expect(code).toBe(0);
    return output;
  }

  /** Every key under the test's prefix, with its content, as text. */
  async function dumpRedis(): Promise<string> {
    const parts: string[] = [];
    for (const key of await redis.keys()) {
      const type = await redis.redis.type(key);
      let value: unknown;
      if (type === "string") value = await redis.redis.get(key);
      else if (type === "hash") value = await redis.redis.hgetall(key);
      else if (type === "list") value = await redis.redis.lrange(key, 0, -1);
      else if (type === "set") value = await redis.redis.smembers(key);
      else if (type === "zset") value = await redis.redis.zrange(key, 0, -1, "WITHSCORES");
      else if (type === "stream") value = await redis.redis.xrange(key, "-", "+");
      parts.push(`${key} (${type}): ${JSON.stringify(value)}`);
    }
    return parts.join("\n");
  }

  async function httpGet(url: string, authorization: string): Promise<string> {
    const response = await fetch(url, { headers: { authorization } });
    const text = await response.text();
    expect(response.status, `${url}: ${text.slice(0, 200)}`).toBe(200);
    return text;
  }

  test("no secret, in any spelling, reaches the worker's output, Redis, jobs list/show, the job routes, the admin API or the CLI's output", async () => {
    const configPath = join(dir, "worker.json");
    await writeFile(configPath, JSON.stringify(workerConfig(), null, 2));
    const worker: CliProcess = await cli.startWorker(configPath, 30_000);
    const listening = await worker.waitForLog((line) => line.msg === "HTTP server listening", 30_000, "'HTTP server listening'");
    const serverUrl = String(listening.url);

    const refs = [
      await refOf(["enqueue", "sync", "--config", configPath, "--project", "67", "--json"]),
      await refOf(["enqueue", "sync", "--config", configPath, "--project", "68", "--json"]),
      await refOf(["enqueue", "sync", "--config", configPath, "--project", "69", "--json"]),
      await refOf(["enqueue", "activation-orders", "--config", configPath, "--connection", "amazon-fr", "--json"]),
    ];
    const added = await fetch(`${serverUrl}/v1/add-options`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRETS.triggerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ project: 69, attribute: "color", options: [{ name: "teal", label: { "en-US": "Teal" } }] }),
    });
    expect(added.status).toBe(202);
    refs.push(((await added.json()) as { job_id: string }).job_id);

    const reasons = await Promise.all(
      refs.map((ref) => (ref.startsWith("activation/") ? refusedReasonsOf(ref, configPath) : failedReasonOf(ref))),
    );
    for (const echo of Object.values(echoes).filter((echo) => echo !== echoes.activation)) expect(echo.requestCount()).toBeGreaterThan(0);

    const outputs: Record<string, string> = {};
    refs.forEach((ref, index) => (outputs[`failure of ${ref}`] = reasons[index] ?? ""));
    outputs["jobs list --json"] = (await run(["jobs", "list", "--config", configPath, "--json"])).output;
    for (const ref of refs) {
      outputs[`jobs show ${ref}`] = (await run(["jobs", "show", ref, "--config", configPath, "--json"])).output;
      // The trigger routes show project jobs only (see trigger-routes.ts).
      if (!ref.startsWith("activation/"))
        outputs[`GET /v1/jobs/${ref}`] = await httpGet(`${serverUrl}/v1/jobs/${ref}`, `Bearer ${SECRETS.triggerToken}`);
      outputs[`GET /admin/api/jobs/${ref}`] = await httpGet(`${serverUrl}/admin/api/jobs/${ref}`, `Bearer ${SECRETS.adminToken}`);
    }
    const basic = `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString("base64")}`;
    outputs["GET /admin/api/jobs"] = await httpGet(`${serverUrl}/admin/api/jobs?state=failed`, basic);
    for (const queue of [...[67, 68, 69].map(queueNameOf), ACTIVATION_QUEUE]) {
      outputs[`dashboard ${queue}`] = await httpGet(
        `${serverUrl}/admin/api/queues?activeQueue=${queue}&status=failed&page=1&jobsPerPage=50`,
        basic,
      );
    }
    outputs["metrics"] = await httpGet(`${serverUrl}/metrics`, `Bearer ${SECRETS.metricsToken}`);

    // The CLI against the same echoing PIM, and against an echoing Activation API.
    outputs["sync --once"] = (await run(["sync", "--config", configPath, "--project", "67", "--once"])).output;
    const cliConfig = {
      ...workerConfig(),
      activation: { url: echoes.activation.origin, pim_connection_id: "sim-pim-connection", access_token: SECRETS.activationToken },
    };
    delete (cliConfig as { redis?: unknown }).redis;
    const cliConfigPath = join(dir, "activation.json");
    await writeFile(cliConfigPath, JSON.stringify(cliConfig));
    const offersFile = join(dir, "offers.ndjson");
    await writeFile(offersFile, `${JSON.stringify({ sku: "SKU-1", stock: 1 })}\n`);
    outputs["activation connections"] = (await run(["activation", "connections", "--config", cliConfigPath])).output;
    outputs["activation orders"] = (await run(["activation", "orders", "--config", cliConfigPath, "--connection", "amazon-fr"])).output;
    outputs["activation offers put"] = (
      await run(["activation", "offers", "put", "--config", cliConfigPath, "--connection", "amazon-fr", "--file", offersFile])
    ).output;
    expect(echoes.activation.requestCount()).toBeGreaterThan(0);

    worker.signal("SIGTERM");
    await waitForExit(worker, 30_000);
    outputs["worker output"] = `${worker.stdout()}\n${worker.stderr()}`;
    outputs["redis"] = await dumpRedis();

    const leaks = Object.entries(outputs).flatMap(([where, text]) =>
      leakedSecrets(text, ALL_SECRETS).map((secret) => `${where}: ${secret}`),
    );
    expect(leaks).toEqual([]);
    // The echoes did come back into the errors: scrubbed, not dropped before they could be.
    expect(reasons.join("\n")).toContain("[redacted]");
    expect(outputs["activation orders"]).toContain("[redacted]");
  });
});
