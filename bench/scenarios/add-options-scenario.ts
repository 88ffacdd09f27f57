/**
 * Figure 5: 1,000 add-options jobs (one new option each) spread over 20 collections, enqueued as
 * fast as the producer takes them (`enqueue("options.add", …)`, the call behind the trigger route), through
 * an in-process worker (built by `createApp`) on the running simulators and Redis, timed from the first
 * job added to the last completed, against the one-call-per-addition floor (add-options-plan.ts):
 * the worker merges waiting requests, so the ratio shows how far below that floor it gets.
 *
 * Run under one size only (`addOptionsSize`, small by default): the service's 10 req/s make it
 * take 100 s at any size. The first sync's state is in files (the sync child's), not in this
 * worker's Redis, so the worker's collections have no state: add-options works without it (it
 * records its additions and leaves the rest to the next sync).
 */
import { performance } from "node:perf_hooks";
import type { RecordedRequest } from "../../sim/shared/request-log.js";
import { BENCH_PROJECT } from "../catalog/generate-catalog.js";
import { deriveCatalog } from "../catalog/derive-service-collections.js";
import { round } from "../report/round.js";
import { openAddOptionsBenchWorker, type AddOptionsBenchWorker } from "../worker/add-options-bench-worker.js";
import { streamPosition, waitForQueueRun } from "../worker/wait-for-queue-run.js";
import { jobsPerSecond } from "../worker/queue-run-summary.js";
import {
  ADD_OPTIONS_ADDITIONS,
  ADD_OPTIONS_COLLECTIONS,
  addOptionsFloor,
  addOptionsJobs,
  addOptionsMinimal,
  mergedAdditionsFloor,
  pickAddOptionsTargets,
} from "./add-options-plan.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

export async function runAddOptionsScenario(context: ScenarioContext): Promise<ScenarioResult> {
  const { addOptionsSize } = context.worker;
  if (context.size !== addOptionsSize) {
    return {
      figures: { add_options_ratio: null, add_options_service_calls: null },
      measurements: {},
      note: `add_options_ratio: measured on ${addOptionsSize} only`,
    };
  }
  const { scope, specs } = deriveCatalog(context.pim.state);
  const targets = pickAddOptionsTargets(specs, context.pim.state.attributes, ADD_OPTIONS_COLLECTIONS);
  const labelLocale = scope.locales[0];
  if (labelLocale === undefined) throw new Error("the catalogue has no enabled locale to label added options in");
  const jobs = addOptionsJobs(BENCH_PROJECT, targets, labelLocale, ADD_OPTIONS_ADDITIONS);
  const minimal = addOptionsMinimal(jobs, targets);
  const floor = addOptionsFloor(minimal, context.latencyMs);
  const optionCounts = new Map(
    targets.map((target) => [target.attribute, (context.pim.state.attribute_options[target.attribute] ?? []).length] as const),
  );
  const mergedFloor = mergedAdditionsFloor(jobs, targets, optionCounts, context.latencyMs);
  const collections = targets.reduce((sum, target) => sum + target.collections.length, 0);

  let run: AddOptionsBenchWorker;
  try {
    run = await openAddOptionsBenchWorker(
      context,
      targets.map((target) => target.attribute),
    );
  } catch (error) {
    const note = `add_options_ratio: not measured, ${(error as Error).message}`;
    context.progress(note);
    return { figures: { add_options_ratio: null, add_options_service_calls: null }, measurements: {}, note };
  }
  try {
    const { bench, queues } = run;
    context.pim.clearRequests();
    context.service.clearRequests();
    context.progress(
      `add-options: ${jobs.length} jobs over ${targets.length} attributes (${collections} collections), floor ${round(floor.seconds, 1)} s (${floor.boundBy})…`,
    );

    const workerStartMs = await run.startWorker();
    const after = await streamPosition(bench.redis, queues.queueFor(BENCH_PROJECT));

    const cpuBefore = process.cpuUsage();
    const enqueueStartedAt = performance.now();
    // As fast as possible: every add in flight at once on the producer's connection.
    const enqueued = await Promise.all(jobs.map((job) => queues.enqueue("options.add", job)));
    const enqueueMs = performance.now() - enqueueStartedAt;
    const notQueued = enqueued.filter((job) => job.status !== "queued").length;
    if (notQueued > 0) throw new Error(`add-options: ${notQueued} of ${jobs.length} jobs were not queued as new jobs`);

    const timeoutMs = Math.max(3 * floor.seconds * 1000, floor.seconds * 1000 + 120_000);
    const summary = await waitForQueueRun({
      redis: bench.redis,
      queue: queues.queueFor(BENCH_PROJECT),
      after,
      jobs: jobs.length,
      timeoutMs,
      onProgress: (pending) =>
        context.progress(
          `add-options: ${jobs.length - pending}/${jobs.length} jobs done, service ${context.service.stats().total} requests`,
        ),
    });
    const cpu = process.cpuUsage(cpuBefore);

    const missingInPim = jobs.filter(
      (job) =>
        !job.options.every((option) => (context.pim.state.attribute_options[job.attribute] ?? []).some((o) => o.code === option.name)),
    );
    if (missingInPim.length > 0)
      throw new Error(`add-options: ${missingInPim.length} added option(s) are not in the PIM, e.g. ${missingInPim[0]?.options[0]?.name}`);
    const { firstAddedMs, lastFinishedMs } = summary;
    if (firstAddedMs === null || lastFinishedMs === null) throw new Error("add-options: the queue's events have no add or no completion");
    const wallMs = lastFinishedMs - firstAddedMs;
    const floorMs = floor.seconds * 1000;
    const pim = countRequests(context.pim.requests);
    const service = countRequests(context.service.requests);
    const addOptionsCalls = context.service.requests.filter((r) => r.method === "PATCH" && r.path.endsWith("/add-options/"));
    const optionGets = context.pim.requests.filter((r) => r.method === "GET" && r.route?.endsWith("/options/:option") === true).length;
    context.progress(
      `add-options: ${(wallMs / 1000).toFixed(2)} s for ${jobs.length} jobs (floor ${floor.seconds} s), ratio ${(wallMs / floorMs).toFixed(3)}`,
    );

    return {
      figures: { add_options_ratio: round(wallMs / floorMs, 4), add_options_service_calls: addOptionsCalls.length },
      measurements: {
        add_options: {
          jobs: jobs.length,
          attributes: targets.length,
          collections,
          wall_s: round(wallMs / 1000, 3),
          floor_s: round(floor.seconds, 3),
          floor_bound_by: floor.boundBy,
          pim_floor_s: round(floor.pimSeconds, 3),
          service_floor_s: round(floor.serviceSeconds, 3),
          ratio: round(wallMs / floorMs, 4),
          merged_floor_s: round(mergedFloor.seconds, 3),
          merged_floor_bound_by: mergedFloor.boundBy,
          jobs_per_s: round(jobsPerSecond(jobs.length, firstAddedMs, lastFinishedMs) ?? 0, 2),
          mean_job_ms: round(wallMs / jobs.length, 1),
          first_job_wait_s: summary.firstActiveMs === null ? null : round((summary.firstActiveMs - firstAddedMs) / 1000, 3),
          enqueue_s: round(enqueueMs / 1000, 3),
          worker_start_s: round(workerStartMs / 1000, 3),
          completed: summary.completed,
          failed: summary.failed,
          requeued: summary.requeued,
          pim_requests: pim.requests,
          pim_minimal: minimal.pim,
          pim_option_gets: optionGets,
          pim_429: pim.rateLimited,
          service_requests: service.requests,
          service_minimal: minimal.service,
          service_add_options: addOptionsCalls.length,
          service_add_options_ok: addOptionsCalls.filter((r) => r.status >= 200 && r.status < 300).length,
          service_429: service.rateLimited,
          bench_cpu_s: round((cpu.user + cpu.system) / 1e6, 3),
        },
      },
      note:
        "add-options: the worker's state is in Redis and the first sync's is in files, so the collections have no state " +
        "(add-options works without it); waiting requests are merged (one add-options call per collection and batch)",
    };
  } finally {
    await run.close();
  }
}

function countRequests(requests: readonly RecordedRequest[]): { requests: number; rateLimited: number } {
  return { requests: requests.length, rateLimited: requests.filter((r) => r.status === 429).length };
}
