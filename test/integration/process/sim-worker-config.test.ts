import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { JobQueues } from "../../../src/jobs/job-queues.js";
import { assertCliBuilt, servingUrlOf, REPO_ROOT, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/process-poll.js";
import { TEST_REDIS_URL, type TestRedis } from "../../support/redis.js";
import { test, type CliFixture } from "../../support/fixtures.js";

interface SimWorkerConfig {
  redis: { url: string; prefix: string };
  server: { host: string; port: number };
  trigger: { token: string };
  projects: { pim: { url: string }; service: { url: string } }[];
}

describe("config/sim-worker.yaml: `pim-sync sim` + `pim-sync worker` as the README shows", () => {
  let cli: CliFixture;
  let redis: TestRedis;
  let queues: JobQueues;
  let dir: string;

  beforeAll(() => assertCliBuilt());
  test.beforeEach(async ({ redis: testRedis, queues: projectQueues, tempDir, cli: processes }) => {
    cli = processes;
    redis = testRedis;
    queues = projectQueues;
    dir = tempDir;
  });

  async function stop(proc: CliProcess): Promise<void> {
    proc.signal("SIGTERM");
    await waitForExit(proc, 30_000);
  }

  test("the shipped file, with its ports and key prefix moved aside, runs a sync asked for through the trigger", async () => {
    // Every port bound as 0 and read back, so the test runs beside anything else on this
    // machine, a `pim-sync sim` on the default ports included.
    const sim = cli.spawn(["sim", "--pim-port", "0", "--service-port", "0", "--activation-port", "0"]);
    await waitFor(() => sim.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 15_000, what: "the simulators" });
    const urlAfter = (label: string): string => {
      const found = new RegExp(`${label}\\s+(http://\\S+)`).exec(sim.stdout())?.[1];
      if (found === undefined) throw new Error(`no '${label}' URL in the sim's output:\n${sim.stdout()}`);
      return found;
    };
    const [pimUrl, serviceUrl] = [urlAfter("PIM simulator:"), urlAfter("Configuration-service simulator:")];
    const shipped = parseYaml(await readFile(join(REPO_ROOT, "config", "sim-worker.yaml"), "utf8")) as SimWorkerConfig;
    expect(shipped.trigger.token.length).toBeGreaterThanOrEqual(16);
    // The same file, moved aside: its simulator URLs, port and key prefix.
    const config: SimWorkerConfig = {
      ...shipped,
      redis: { ...shipped.redis, url: TEST_REDIS_URL, prefix: redis.prefix },
      server: { ...shipped.server, port: 0 },
      projects: shipped.projects.map((project) => ({
        ...project,
        pim: { ...project.pim, url: project.pim.url.replace("http://127.0.0.1:8081", pimUrl) },
        service: { ...project.service, url: project.service.url.replace("http://127.0.0.1:8082", serviceUrl) },
      })),
    };
    expect(config.projects.map((project) => [project.pim.url, project.service.url])).toEqual(
      shipped.projects.map(() => [pimUrl, serviceUrl]),
    );
    const configPath = join(dir, "sim-worker.yaml");
    await writeFile(configPath, stringifyYaml(config));

    const worker = cli.spawn(["worker", "--config", configPath]);
    const serverUrl = await servingUrlOf(worker);

    // The README's curl, with fetch.
    const answer = await fetch(`${serverUrl}/v1/sync`, {
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

  test("the demo says what the untouched manual collection is and suggests the next step", async () => {
    const demo = cli.spawn(["demo"]);
    expect(await waitForExit(demo, 60_000)).toEqual({ code: 0, signal: null });

    expect(demo.stdout()).toMatch(
      /^ {2}manual_list: 1 option\(s\).*\n {4}\(untouched: no PIM attribute derives 'manual_list', so it is a collection kept by hand in the service; pim-sync never writes it\)$/m,
    );
    expect(demo.stdout()).toContain("node dist/src/cli/bin.js worker --config config/sim-worker.yaml");
  });
});
