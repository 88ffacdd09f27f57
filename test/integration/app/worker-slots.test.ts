import { describe, expect } from "vitest";
import type { CliProcess, LogLine } from "../../support/process-cli.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { test } from "../../support/fixtures.js";
import { HELD_HTTP, PIM_API } from "../../support/worker-harness.js";
import { writeWorkerConfig, type ProcessTestFixtures } from "../../support/worker-process.js";

const PROJECTS = [67, 99] as const;

/** One job run as the process's log tells it: from 'job started' to 'job done' (pino's `time`). */
interface JobRun {
  readonly job: string;
  readonly start: number;
  readonly end: number;
}

function runsIn(logs: readonly LogLine[]): JobRun[] {
  const runs: JobRun[] = [];
  for (const started of logs.filter((line) => line.msg === "job started")) {
    const done = logs.find((line) => line.msg === "job done" && line.job === started.job);
    if (typeof started.job === "string" && typeof started.time === "number" && typeof done?.time === "number") {
      runs.push({ job: started.job, start: started.time, end: done.time });
    }
  }
  return runs;
}

describe("pim-sync worker processes: a process takes a job only with a free slot", () => {
  let fixtures: ProcessTestFixtures;
  let configPath: string;

  test.override("queueProjects", PROJECTS);
  test.beforeEach(async ({ sims, redis, queues, tempDir, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    configPath = await writeWorkerConfig(fixtures, { http: HELD_HTTP, worker: { concurrency: 1 }, projects: PROJECTS });
  });

  const spawnWorker = (): Promise<CliProcess> => fixtures.cli.startWorker(configPath);

  test("two processes of concurrency 1, two projects with work: both run a job at once", async () => {
    // The case: process A is up when the work arrives, B comes a moment later. A runs one
    // job; before the fix its second project's Worker had taken the other job too (waiting for
    // A's slot), so B found nothing and A ran both in turn.
    // The PIM holds every API request until B has started its job: A's job cannot end before
    // then, however long B takes to come up (a latency only made that likely).
    const gate = fixtures.sims.pim.holdRequests({ path: PIM_API });
    const a = await spawnWorker();
    const jobs = await Promise.all(PROJECTS.map((project) => fixtures.queues.enqueue("sync.run", { project })));
    const first = await a.waitForLog((line) => line.msg === "job started", 10_000, "A's first 'job started'");
    await gate.reached(1, 30_000);
    const b = await spawnWorker();
    await b.waitForLog((line) => line.msg === "job started", 30_000, "B's 'job started' while A's job is held");
    gate.open();

    await Promise.all(jobs.map((job) => waitForJobState(fixtures.queues, job.project, job.jobId, "completed", 60_000)));
    const runsOfA = runsIn(a.logs());
    const runsOfB = runsIn(b.logs());
    expect(runsOfA.map((run) => run.job)).toEqual([first.job]);
    expect(runsOfB).toHaveLength(1);
    const [runOfA] = runsOfA;
    const [runOfB] = runsOfB;
    // The two runs overlap: each started before the other ended.
    expect(runOfA && runOfB && runOfA.start < runOfB.end && runOfB.start < runOfA.end).toBe(true);
  });
});
