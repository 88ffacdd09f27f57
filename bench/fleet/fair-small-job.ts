/**
 * Issue 18 §2: how long a small job waits when it starts during a large one that holds the
 * shared budget (fairness rule: round robin per project at each acquisition,
 * src/infra/budgets/fair-turns.ts).
 *
 * One `pim-sync worker` process of concurrency 2 on the generated medium catalogue at the real
 * budgets: project L (the benchmark project, 203 collections: about 20 s of the service's
 * 10 requests/s) and project S, which shares L's service account and PIM connection and holds
 * one collection of a select attribute it may add options to. S's small job is one add-options
 * request of one option (a PIM read before, the add-options call, a PIM read after).
 *
 * 1. S's first request alone, unmeasured (it reads the structure and the collection list, then
 *    cached); then `ALONE` requests alone, one after the other: the latency without contention.
 * 2. L's full sync; once its writes have started (the service budget is full), S's requests one
 *    after the other, `GAP_MS` apart, until L ends. Only those finished before L are counted.
 *
 * Latency = BullMQ's finishedOn − timestamp of the job. `fair_small_job_wait_ms` = the worst
 * latency during L − the median alone: what L's presence added to a small job at its worst.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createJobQueues } from "../../src/jobs/queues/job-queues.js";
import { startConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { startPimSimulator } from "../../sim/pim/pim-simulator.js";
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";
import { BENCH_PROJECT, generateCatalog } from "../catalog/generate-catalog.js";
import { deriveCatalog } from "../catalog/derive-service-collections.js";
import { percentile } from "../scenarios/latency-percentiles.js";
import { pickAddOptionsTargets } from "../scenarios/add-options-plan.js";
import { round } from "../report/round.js";
import { spawnWorkerCommand, type WorkerProcess } from "../scale/worker-process.js";
import { openBenchRedis } from "../worker/bench-redis.js";
import { fleetWorkerConfig } from "./fleet-worker-config.js";
import { waitForJob, type FinishedJob } from "./wait-for-job.js";

const LARGE = BENCH_PROJECT;
const SMALL = BENCH_PROJECT + 1;
const ALONE = 5;
const GAP_MS = 250;
/** L's writes under way: the service budget is then in use by L. */
const L_WRITES_BEFORE_SMALL_JOBS = 5;
const JOB_TIMEOUT_MS = 120_000;
const LARGE_TIMEOUT_MS = 300_000;

export interface FairSmallJobResult {
  readonly waitMs: number;
  readonly measurements: Readonly<Record<string, number | string | null>>;
}

/** The medium catalogue, plus project S holding a copy of one single-collection select attribute's collection. */
function fairnessCatalog(seed: number): {
  readonly catalog: SimCatalog;
  readonly attribute: string;
  readonly locale: string;
  readonly largeCollections: number;
} {
  const catalog = generateCatalog("medium", seed);
  const { scope, specs } = deriveCatalog(catalog.pim);
  const [target] = pickAddOptionsTargets(specs, catalog.pim.attributes, 1);
  const locale = scope.locales[0];
  if (target === undefined || locale === undefined)
    throw new Error("fairness: the medium catalogue has no select attribute to add options to");
  const largeCollections = catalog.service.collections.filter((collection) => collection.project === LARGE);
  const copied = largeCollections.filter((collection) => target.collections.includes(collection.name));
  let nextId = Math.max(0, ...catalog.service.collections.map((collection) => collection.id)) + 1;
  return {
    catalog: {
      pim: catalog.pim,
      service: {
        ...catalog.service,
        projects: [...catalog.service.projects, SMALL],
        collections: [
          ...catalog.service.collections,
          ...copied.map((collection) => ({ ...structuredClone(collection), id: nextId++, project: SMALL })),
        ],
      },
    },
    attribute: target.attribute,
    locale,
    largeCollections: largeCollections.length,
  };
}

export async function measureFairSmallJob(args: {
  readonly redisUrl: string;
  readonly latencyMs: number;
  readonly seed: number;
  readonly cliPath: string;
  readonly progress: (message: string) => void;
}): Promise<FairSmallJobResult> {
  const { catalog, attribute, locale, largeCollections } = fairnessCatalog(args.seed);
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs: args.latencyMs });
  const service = await startConfigServiceSimulator({ catalog: catalog.service, pim, latencyMs: args.latencyMs });
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-fair-"));
  const bench = await openBenchRedis(args.redisUrl).catch(async (error: unknown) => {
    await Promise.all([service.close(), pim.close(), rm(dir, { recursive: true, force: true })]);
    throw error;
  });
  const queues = createJobQueues({
    connection: bench.redis,
    prefix: bench.prefix,
    projects: [LARGE, SMALL],
    retention: { keep_completed_days: 1, keep_failed_days: 1 },
  });
  let worker: WorkerProcess | null = null;
  try {
    const configPath = join(dir, "config.json");
    const config = fleetWorkerConfig({
      redisUrl: args.redisUrl,
      prefix: bench.prefix,
      projects: [LARGE, SMALL],
      concurrency: 2,
      pimUrl: pim.url,
      serviceUrl: service.url,
      allowedAttributes: { [SMALL]: [attribute] },
    });
    await writeFile(configPath, JSON.stringify(config));
    worker = spawnWorkerCommand(args.cliPath, configPath);
    await worker.started;

    let added = 0;
    const smallJob = async (): Promise<FinishedJob> => {
      added += 1;
      const { jobId } = await queues.enqueue("options.add", {
        project: SMALL,
        attribute,
        options: [{ name: `bench_fair_${added}`, label: { [locale]: `Bench fairness ${added}` } }],
        requested_by: "bench",
      });
      return waitForJob(queues.queueFor(SMALL), jobId, JOB_TIMEOUT_MS);
    };
    const latencyOf = (job: FinishedJob): number => job.finishedOn - job.timestamp;

    await smallJob();
    const alone: number[] = [];
    for (let index = 0; index < ALONE; index += 1) {
      alone.push(latencyOf(await smallJob()));
      await sleep(GAP_MS);
    }
    args.progress(
      `fairness: small job alone ${alone.map((ms) => Math.round(ms)).join(" / ")} ms; large sync of ${largeCollections} collections…`,
    );

    service.clearRequests();
    const large = await queues.enqueue("sync.run", { project: LARGE, full: true });
    await service.waitForRequest((request) => request.method === "PATCH", LARGE_TIMEOUT_MS);
    const largeWrites = (): number => service.requests.filter((request) => request.method === "PATCH").length;
    while (largeWrites() < L_WRITES_BEFORE_SMALL_JOBS) await sleep(GAP_MS);

    const largeQueue = queues.queueFor(LARGE);
    const largeDone = waitForJob(largeQueue, large.jobId, LARGE_TIMEOUT_MS);
    let largeOver = false;
    void largeDone.then(
      () => (largeOver = true),
      () => (largeOver = true),
    );
    const during: FinishedJob[] = [];
    while (!largeOver) {
      during.push(await smallJob());
      await sleep(GAP_MS);
    }
    const largeJob = await largeDone;
    const counted = during.filter((job) => job.finishedOn <= largeJob.finishedOn).map(latencyOf);
    if (counted.length === 0) throw new Error("fairness: no small job finished while the large sync ran");
    const aloneMedian = percentile(alone, 50) ?? 0;
    const worst = Math.max(...counted);
    args.progress(
      `fairness: ${counted.length} small jobs during the large sync, worst ${Math.round(worst)} ms, median alone ${Math.round(aloneMedian)} ms`,
    );
    return {
      waitMs: round(worst - aloneMedian, 0),
      measurements: {
        large_collections: largeCollections,
        large_sync_s: round((largeJob.finishedOn - (largeJob.processedOn ?? largeJob.timestamp)) / 1000, 2),
        alone_p50_ms: round(aloneMedian, 0),
        alone_max_ms: round(Math.max(...alone), 0),
        during_jobs: counted.length,
        during_p50_ms: round(percentile(counted, 50) ?? 0, 0),
        during_max_ms: round(worst, 0),
        service_429: service.requests.filter((request) => request.status === 429).length,
        pim_429: pim.requests.filter((request) => request.status === 429).length,
      },
    };
  } finally {
    await worker?.stop().catch(() => undefined);
    await queues.close().catch(() => undefined);
    await bench.cleanup();
    await Promise.all([service.close(), pim.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}
