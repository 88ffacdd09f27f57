/**
 * Figure 5b: additions arriving one every 50 ms (400), enqueued with `enqueue("options.add", …)` on a
 * schedule that does not drift, through an in-process worker: the latency of each request from
 * its enqueueing to its job's completion (BullMQ's own timestamps). Merging trades a little
 * waiting for far fewer service calls; this shows the price.
 *
 * Run twice: over 5 collections (a burst from an import touches a handful of attributes), which
 * gives the figure, and over the 20 collections of figure 5, reported as a measurement. Over 20,
 * each collection receives an addition a second while the service takes 10 calls a second, so a
 * collection can be written once every 2 s at most and the p95 cannot go below about 1.9 s
 * whatever the design (docs/benchmarks.md); over 5, the budget leaves room and the figure measures
 * what merging itself adds.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import { BENCH_PROJECT } from "../catalog/generate-catalog.js";
import { deriveCatalog } from "../catalog/derive-service-collections.js";
import { round } from "../report/round.js";
import { openAddOptionsBenchWorker, type AddOptionsBenchWorker } from "../worker/add-options-bench-worker.js";
import { streamPosition, waitForQueueRun } from "../worker/wait-for-queue-run.js";
import { ADD_OPTIONS_COLLECTIONS, addOptionsJobs, pickAddOptionsTargets } from "./add-options-plan.js";
import { percentile, requestLatencies } from "./latency-percentiles.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

export const LATENCY_ADDITIONS = 400;
export const LATENCY_INTERVAL_MS = 50;

/** The collections of the run that gives `add_options_latency_p95_ms`. */
export const LATENCY_COLLECTIONS = 5;

export const runAddOptionsLatencyScenario = addOptionsLatencyScenario({
  collections: LATENCY_COLLECTIONS,
  group: "add_options_latency",
  figure: true,
});
export const runAddOptionsLatencyOver20Scenario = addOptionsLatencyScenario({
  collections: ADD_OPTIONS_COLLECTIONS,
  group: "add_options_latency_20",
  figure: false,
});

function addOptionsLatencyScenario(variant: {
  readonly collections: number;
  readonly group: string;
  readonly figure: boolean;
}): (context: ScenarioContext) => Promise<ScenarioResult> {
  const figures = (p95: number | null): ScenarioResult["figures"] => (variant.figure ? { add_options_latency_p95_ms: p95 } : {});
  return async (context) => {
    const { addOptionsSize } = context.worker;
    if (context.size !== addOptionsSize)
      return { figures: figures(null), measurements: {}, note: `add_options_latency_p95_ms: measured on ${addOptionsSize} only` };
    const { scope, specs } = deriveCatalog(context.pim.state);
    const targets = pickAddOptionsTargets(specs, context.pim.state.attributes, variant.collections);
    const labelLocale = scope.locales[0];
    if (labelLocale === undefined) throw new Error("the catalogue has no enabled locale to label added options in");
    // Codes of their own: figure 5 added `bench_add_<n>` to the same attributes just before.
    const jobs = addOptionsJobs(BENCH_PROJECT, targets, labelLocale, LATENCY_ADDITIONS).map((job) => ({
      ...job,
      options: job.options.map((option) => ({ ...option, name: option.name.replace("bench_add_", `bench_lat${variant.collections}_`) })),
    }));

    let run: AddOptionsBenchWorker;
    try {
      run = await openAddOptionsBenchWorker(
        context,
        targets.map((target) => target.attribute),
      );
    } catch (error) {
      const note = `add_options_latency_p95_ms: not measured, ${(error as Error).message}`;
      context.progress(note);
      return { figures: figures(null), measurements: {}, note };
    }
    try {
      const { bench, queues } = run;
      context.service.clearRequests();
      await run.startWorker();
      const queue = queues.queueFor(BENCH_PROJECT);
      const after = await streamPosition(bench.redis, queue);
      context.progress(
        `add-options latency: ${jobs.length} jobs over ${variant.collections} collections, one every ${LATENCY_INTERVAL_MS} ms…`,
      );

      const startedAt = performance.now();
      const ids: string[] = [];
      for (const [index, job] of jobs.entries()) {
        const due = startedAt + index * LATENCY_INTERVAL_MS;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        ids.push((await queues.enqueue("options.add", job)).jobId);
      }
      const arrivalS = (performance.now() - startedAt) / 1000;
      await waitForQueueRun({ redis: bench.redis, queue, after, jobs: jobs.length, timeoutMs: 300_000 });
      const finished = await Promise.all(ids.map((id) => queue.getJob(id)));
      const latencies = requestLatencies(finished.map((job, index) => job ?? { id: ids[index], timestamp: 0 }));
      const p50 = percentile(latencies, 50);
      const p95 = percentile(latencies, 95);
      const leaders = finished.filter((job) => (job?.returnvalue as { merged_into?: unknown } | undefined)?.merged_into === null).length;
      const addOptionsCalls = context.service.requests.filter((r) => r.method === "PATCH" && r.path.endsWith("/add-options/")).length;
      context.progress(
        `add-options latency over ${variant.collections} collections: p50 ${p50} ms, p95 ${p95} ms, ${leaders} batches, ${addOptionsCalls} add-options calls`,
      );
      return {
        figures: figures(p95),
        measurements: {
          [variant.group]: {
            jobs: jobs.length,
            collections: variant.collections,
            interval_ms: LATENCY_INTERVAL_MS,
            arrival_s: round(arrivalS, 3),
            p50_ms: p50,
            p95_ms: p95,
            max_ms: Math.max(...latencies),
            batches: leaders,
            service_add_options: addOptionsCalls,
          },
        },
        note: 'add-options latency: enqueue("options.add") one every 50 ms (the call behind the trigger route), times from BullMQ\'s job timestamps; the figure over 5 collections, the 20-collection run as a measurement',
      };
    } finally {
      await run.close();
    }
  };
}
