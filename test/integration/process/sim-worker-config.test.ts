import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { JobQueues } from "../../../src/jobs/job-queues.js";
import { freePort } from "../../support/free-port.js";
import { assertCliBuilt, killLeftoverProcesses, servingUrlOf, REPO_ROOT, spawnCli, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { openTestQueues, waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/process-poll.js";
import { createConfigSafeTestRedis } from "../../support/process-redis.js";
import { TEST_REDIS_URL, type TestRedis } from "../../support/redis.js";

interface SimWorkerConfig {
  redis: { url: string; prefix: string };
  server: { host: string; port: number };
  trigger: { token: string };
  projects: { pim: { url: string }; service: { url: string } }[];
}

describe("config/sim-worker.yaml: `pim-sync sim` + `pim-sync worker` as the README shows", () => {
  let redis: TestRedis;
  let queues: JobQueues;
  let dir: string;

  beforeAll(() => assertCliBuilt());
  beforeEach(async () => {
    redis = await createConfigSafeTestRedis();
    queues = openTestQueues(redis);
    dir = await mkdtemp(join(tmpdir(), "pim-sync-sim-worker-"));
  });
  afterEach(async () => {
    await killLeftoverProcesses();
    await queues.close();
    await redis.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  async function stop(proc: CliProcess): Promise<void> {
    proc.signal("SIGTERM");
    await waitForExit(proc, 30_000);
  }

  it("the shipped file, with its ports and key prefix moved aside, runs a sync asked for through the trigger", async () => {
    const [pimPort, servicePort, triggerPort] = [await freePort(), await freePort(), await freePort()];
    const shipped = parseYaml(await readFile(join(REPO_ROOT, "config", "sim-worker.yaml"), "utf8")) as SimWorkerConfig;
    expect(shipped.trigger.token.length).toBeGreaterThanOrEqual(16);
    // The same file, moved so the test runs beside anything else on this machine.
    const config: SimWorkerConfig = {
      ...shipped,
      redis: { ...shipped.redis, url: TEST_REDIS_URL, prefix: redis.prefix },
      server: { ...shipped.server, port: triggerPort },
      projects: shipped.projects.map((project) => ({
        ...project,
        pim: { ...project.pim, url: project.pim.url.replace(":8081", `:${pimPort}`) },
        service: { ...project.service, url: project.service.url.replace(":8082", `:${servicePort}`) },
      })),
    };
    const configPath = join(dir, "sim-worker.yaml");
    await writeFile(configPath, stringifyYaml(config));

    const sim = spawnCli(["sim", "--pim-port", String(pimPort), "--service-port", String(servicePort)]);
    await waitFor(() => sim.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 15_000, what: "the simulators" });
    const worker = spawnCli(["worker", "--config", configPath]);
    await servingUrlOf(worker);

    // The README's curl, with fetch.
    const answer = await fetch(`http://127.0.0.1:${triggerPort}/v1/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${shipped.trigger.token}`, "content-type": "application/json" },
      body: JSON.stringify({ project: 67 }),
    });
    expect(answer.status).toBe(202);
    const { job_id: ref } = (await answer.json()) as { job_id: string };
    await waitForJobState(queues, 67, ref.slice("67/".length), "completed", 30_000);

    await stop(worker);
    await stop(sim);
    expect(worker.child.exitCode).toBe(0);
  });

  it("the demo says what the untouched manual collection is and suggests the next step", async () => {
    const demo = spawnCli(["demo"]);
    expect(await waitForExit(demo, 60_000)).toEqual({ code: 0, signal: null });

    expect(demo.stdout()).toMatch(/^ {2}manual_list: 1 option\(s\).*\n {4}\(untouched: no PIM attribute derives 'manual_list', so it is a collection kept by hand in the service; pim-sync never writes it\)$/m);
    expect(demo.stdout()).toContain("node dist/src/cli/bin.js worker --config config/sim-worker.yaml");
  });
});
