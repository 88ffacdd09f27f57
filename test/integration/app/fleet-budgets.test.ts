import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { pimConnectionBudgetOf } from "../../../src/infra/budgets/budget-identity.js";
import { keyspaceOf } from "../../../src/infra/redis/keyspace.js";
import { pimConnectionSchema } from "../../../src/settings/settings-schema.js";
import { defaultCatalogPath, startSimulators } from "../../../sim/start-simulators.js";
import { peakInWindow, peakOverlap } from "../../support/peak-window.js";
import { SIM_CREDENTIALS } from "../../support/process-config.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { test } from "../../support/fixtures.js";
import { writeWorkerConfig, type ProcessTestFixtures } from "../../support/worker-process.js";

/** The sample catalogue's two projects, and two copies of project 67, all behind one account and one PIM connection. */
const PROJECTS = [67, 99, 101, 102] as const;
const COPIES_OF_67 = [101, 102] as const;

/** The sample catalogue with projects 101 and 102 holding the same collections as 67 (a small catalogue: a few seconds of traffic). */
async function writeFleetCatalog(dir: string): Promise<string> {
  const catalog = JSON.parse(await readFile(defaultCatalogPath(), "utf8")) as {
    service: { projects: number[]; collections: { id: number; project: number }[] };
  };
  const of67 = catalog.service.collections.filter((collection) => collection.project === 67);
  let nextId = Math.max(...catalog.service.collections.map((collection) => collection.id)) + 1;
  for (const project of COPIES_OF_67) {
    catalog.service.projects.push(project);
    for (const collection of of67) catalog.service.collections.push({ ...collection, id: nextId++, project });
  }
  const path = join(dir, "catalog.json");
  await writeFile(path, JSON.stringify(catalog));
  return path;
}
const LEASE_MS = 2_000;

describe("fleet-wide upstream budgets: two worker processes, four projects, one service account and one PIM connection, the simulators at their real budgets", () => {
  let fixtures: ProcessTestFixtures;
  let configPath: string;
  let pimSettings: Record<string, unknown>;

  test.override("queueProjects", [...PROJECTS]);
  test.beforeEach(async ({ redis, tempDir, queues, closeAfter, cli }) => {
    // Real budgets: service 10 requests/s; PIM 100 requests/s, 4 in flight per connection, 3 option writes/s.
    const sims = closeAfter(await startSimulators({ catalogPath: await writeFleetCatalog(tempDir) }));
    fixtures = { cli, sims, redis, queues, tempDir };
    pimSettings = { url: fixtures.sims.pim.url, ...SIM_CREDENTIALS.pim };
    configPath = await writeWorkerConfig(fixtures, {
      worker: { concurrency: 2 },
      projects: PROJECTS,
      topLevel: { budgets: { lease_ms: LEASE_MS } },
    });
  });

  test("a full sync of every project: no 429 anywhere, never more than 10 service requests in any 1,000 ms, never more than 4 PIM calls in flight", async () => {
    const workers = [await fixtures.cli.startWorker(configPath), await fixtures.cli.startWorker(configPath)];
    const jobs = await Promise.all(PROJECTS.map((project) => fixtures.queues.enqueue("sync.run", { project, full: true })));
    await Promise.all(jobs.map((job) => waitForJobState(fixtures.queues, job.project, job.jobId, "completed", 120_000)));

    // Both processes did part of the work.
    for (const worker of workers) expect(worker.logs().some((line) => line.msg === "job started")).toBe(true);
    const service = fixtures.sims.service.requests;
    const pim = fixtures.sims.pim.requests;
    expect(service.filter((request) => request.status === 429)).toEqual([]);
    expect(pim.filter((request) => request.status === 429)).toEqual([]);
    expect(
      peakInWindow(
        service.map((request) => request.startedAt),
        1000,
      ),
    ).toBeLessThanOrEqual(10);
    expect(
      peakInWindow(
        pim.map((request) => request.startedAt),
        1000,
      ),
    ).toBeLessThanOrEqual(100);
    // The PIM counts calls in flight per connection (token requests aside).
    expect(peakOverlap(pim.filter((request) => request.authScheme === "Bearer"))).toBeLessThanOrEqual(4);
  });

  test("a SIGKILLed process's PIM slots come back within the lease (budgets.lease_ms) and the other process finishes the work", async () => {
    // Slow PIM answers: the first process is sure to hold its connection's slots when it is killed.
    fixtures.sims.pim.setLatencyMs(400);
    const slotsKey = keyspaceOf(fixtures.redis.redis, fixtures.redis.prefix).budgetKey(
      pimConnectionBudgetOf(pimConnectionSchema.parse(pimSettings)),
      "slots",
    );
    const doomed = await fixtures.cli.startWorker(configPath);
    const jobs = await Promise.all(PROJECTS.slice(0, 2).map((project) => fixtures.queues.enqueue("sync.run", { project, full: true })));
    const held = await waitFor(
      async () => {
        const members = await fixtures.redis.redis.zrange(slotsKey, 0, -1);
        return members.length > 0 && members.every((member) => member.startsWith(`${doomed.pid}.`)) ? members : null;
      },
      { timeoutMs: 30_000, what: "the first process to hold PIM slots" },
    );
    expect(held.length).toBeGreaterThan(0);
    doomed.signal("SIGKILL");
    const [seconds, micros] = await fixtures.redis.redis.time();
    const killedAt = Number(seconds) * 1000 + Number(micros) / 1000;
    const leaseEnds = (await fixtures.redis.redis.zrange(slotsKey, 0, -1, "WITHSCORES")).filter((_, index) => index % 2 === 1).map(Number);
    for (const end of leaseEnds) expect(end).toBeLessThanOrEqual(killedAt + LEASE_MS);

    const survivor = await fixtures.cli.startWorker(configPath);
    await Promise.all(jobs.map((job) => waitForJobState(fixtures.queues, job.project, job.jobId, "completed", 120_000)));
    expect(survivor.logs().some((line) => line.msg === "job started")).toBe(true);
    // The dead process's slots are gone; the survivor took them and gave them back.
    expect((await fixtures.redis.redis.zrange(slotsKey, 0, -1)).filter((member) => member.startsWith(`${doomed.pid}.`))).toEqual([]);
  });
});
