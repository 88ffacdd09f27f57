/**
 * Fuzzing job data. `parseJobData` answers any value with the parsed data or a JobDataError whose
 * every problem names its field; and jobs stored with invalid data (queued around the validation,
 * as an older version or a hand-made job would) reach a real worker, which fails each one at once
 * (no retry) with that reason, and makes no request that writes.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { JOB_CATALOG, JobDataError, parseJobData, type JobName } from "../../../src/jobs/catalog/job-catalog.js";
import { PROJECT, startWorkerHarness, type WorkerHarness } from "../../support/worker-harness.js";
import { waitFor } from "../../support/wait-for.js";
import { CHAOS_SIZES, chaosSeed } from "../support/chaos-scale.js";
import { chaosCounters } from "../support/chaos-results.js";

const SEED = chaosSeed();
const JOB_NAMES = Object.keys(JOB_CATALOG) as JobName[];
/** "field.path: why" (the path may be "(data)" for the value as a whole; keys may hold ':'). */
const NAMED_PROBLEM = /^\S[^\n]*?: \S/;

/** Label keys near the locale codes a label takes: empty, an empty subtag, no region, other characters. */
const labelKey = fc.oneof(
  fc.constantFrom("", "en_US", "en-US", "en__US", "en_", "_US", "en", "a b", "zh_Hant_TW"),
  fc.string({ maxLength: 6 }),
);
const nearValid = fc.record(
  {
    project: fc.oneof(fc.constantFrom<unknown>(PROJECT, 99, 0, -1, "67", 1.5, null), fc.jsonValue({ maxDepth: 1 })),
    attribute: fc.oneof(fc.constantFrom<unknown>("color", "material", "", "a-b"), fc.jsonValue({ maxDepth: 1 })),
    options: fc.oneof(
      fc.array(
        fc.record(
          {
            name: fc.oneof(fc.constantFrom("teal", "Teal", ""), fc.string({ maxLength: 8 })),
            label: fc.oneof(fc.dictionary(labelKey, fc.string({ maxLength: 3 }), { maxKeys: 3 }), fc.jsonValue({ maxDepth: 2 })),
          },
          { requiredKeys: [] },
        ),
        {
          maxLength: 3,
        },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    full: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    allow_mass_delete: fc.jsonValue({ maxDepth: 1 }),
    trigger: fc.oneof(fc.constantFrom<unknown>("cli", "api", "cron"), fc.jsonValue({ maxDepth: 1 })),
    requested_by: fc.jsonValue({ maxDepth: 1 }),
    secret: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: [] },
);
const jobData: fc.Arbitrary<unknown> = fc.oneof(nearValid, fc.jsonValue(), fc.anything({ maxDepth: 2 }));

function isValid(name: string, data: unknown): boolean {
  if (!JOB_NAMES.includes(name as JobName)) return false;
  try {
    parseJobData(name as JobName, data);
    return true;
  } catch {
    return false;
  }
}

describe(`chaos: fuzzing job data (seed ${SEED})`, () => {
  const results = chaosCounters("job-data-fuzz");
  let harness: WorkerHarness | undefined;

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it("parseJobData: parsed data, or a JobDataError naming the field of every problem", () => {
    fc.assert(
      fc.property(fc.constantFrom(...JOB_NAMES), jobData, (name, data) => {
        results.add({ fuzzCases: 1 });
        try {
          parseJobData(name, data);
        } catch (error) {
          expect(error).toBeInstanceOf(JobDataError);
          const problems = (error as JobDataError).problems;
          expect(problems.length).toBeGreaterThan(0);
          for (const problem of problems) expect(problem).toMatch(NAMED_PROBLEM);
        }
      }),
      {
        numRuns: CHAOS_SIZES.configFuzzCases,
        seed: SEED,
        // Found by a run of the full suite (an empty label key was a plain Error): tried on every seed.
        examples: [["options.add", { options: [{ label: { "": "!" } }] }]],
      },
    );
  });

  it("a worker fails invalid jobs at once with the reason, and writes nothing", async () => {
    const cases = fc
      .sample(
        fc.tuple(
          fc.oneof(fc.constantFrom(...JOB_NAMES), fc.constantFrom("sync.runs", "options.delete", "")),
          jobData.map((data) => JSON.parse(JSON.stringify(data ?? null)) as unknown),
        ),
        {
          numRuns: CHAOS_SIZES.jobDataFuzzCases * 2,
          seed: SEED,
        },
      )
      // JSON round trip: what Redis keeps of the data. Valid jobs would really run: not fuzz.
      .filter(([name, data]) => !isValid(name, data))
      .slice(0, CHAOS_SIZES.jobDataFuzzCases);
    expect(cases.length, "too few invalid cases were generated to mean anything").toBeGreaterThanOrEqual(CHAOS_SIZES.jobDataFuzzCases / 2);
    harness = await startWorkerHarness();
    const started = harness;
    const queue = started.queue(PROJECT);
    // Straight into BullMQ: the producers' own validation is what is being bypassed.
    const jobs = await queue.addBulk(
      cases.map(([name, data]) => ({
        name,
        data,
        opts: { attempts: 3, backoff: { type: "fixed", delay: 10 }, removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } },
      })),
    );
    await started.startWorker();

    await waitFor(
      async () => {
        const counts = await queue.getJobCounts("failed");
        return counts.failed === jobs.length;
      },
      { timeoutMs: 60_000, what: `all ${jobs.length} invalid jobs to fail` },
    );
    for (const job of jobs) {
      const stored = await queue.getJob(job.id ?? "");
      const reason = stored?.failedReason ?? "";
      const what = `${job.name} ${JSON.stringify(job.data)?.slice(0, 200)} → ${reason}`;
      // Failed at once: an UnrecoverableError uses one attempt of the three allowed.
      expect(stored?.attemptsMade, what).toBe(1);
      expect(reason, what).toMatch(/^(invalid (sync\.run|sync\.events|options\.add) job data: \S[^\n]*?: \S|unknown job name )/);
      expect(reason, what).not.toMatch(/\n\s+at /);
    }
    const writes = [...started.service.requests, ...started.pim.requests].filter((request) => request.method !== "GET");
    expect(writes).toEqual([]);
    results.add({ fuzzCases: jobs.length });
  });
});
