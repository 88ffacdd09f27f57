import { join } from "node:path";
import { UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { describe, expect } from "vitest";
import { runCli } from "../../../../src/cli/main.js";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { loadSettings } from "../../../../src/settings/load-settings.js";
import type { RunningSimulators } from "../../../../sim/start-simulators.js";
import { captureIo } from "../../../support/capture-io.js";
import { SIM_SECRETS, writeTestConfig } from "../../../support/process-config.js";
import { allJobs, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { TEST_REDIS_URL, type TestRedis } from "../../../support/redis.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";
import { HELD_HTTP, PIM_API } from "../../../support/worker-harness.js";
import { addOptionsArgs } from "../../../support/add-options-args.js";

const PROJECT = 67;
const ADD_OPTIONS_PATH = /\/add-options\/$/;

interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

describe("pim-sync enqueue, add-options and jobs", () => {
  let sims: RunningSimulators;
  let redis: TestRedis;
  let queues: JobQueues;
  let dir: string;
  let configPath: string;
  let noRedisConfigPath: string;
  let worker: AppWorker | undefined;
  let workers: WorkersFixture;

  test.beforeEach(async ({ sims: simulators, redis: testRedis, tempDir, queues: projectQueues, workers: keeper }) => {
    workers = keeper;
    sims = simulators;
    redis = testRedis;
    queues = projectQueues;
    dir = tempDir;
    const common = {
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color", "material", "brand", "weight", "ghost"] },
      stateDir: join(dir, "state"),
      // A request the test holds at a simulator's gate waits for the test, not for a timer.
      http: HELD_HTTP,
    };
    configPath = await writeTestConfig(dir, { ...common, redisPrefix: redis.prefix });
    noRedisConfigPath = await writeTestConfig(dir, { ...common, redisPrefix: null }, "no-redis.json");
  });

  async function cli(...argv: string[]): Promise<CliResult> {
    const io = captureIo();
    const code = await runCli(argv, io);
    const result = { code, out: io.out(), err: io.err() };
    for (const secret of SIM_SECRETS) expect(result.out + result.err).not.toContain(secret);
    return result;
  }

  /** A worker in this process, on the same config file the commands use. */
  async function startInProcessWorker(): Promise<AppWorker> {
    worker = workers.keep(await startAppWorker({ settings: await loadSettings(configPath, {}), logger: silentLogger() }));
    return worker;
  }

  function refIn(text: string): string {
    const match = /job (67\/\S+)/.exec(text);
    if (!match?.[1]) throw new Error(`no job reference in: ${text}`);
    return match[1];
  }

  const idOf = (ref: string): string => ref.slice(`${PROJECT}/`.length);

  function writesTo(): { method: string; path: string }[] {
    return sims.service.requests.filter((r) => r.method !== "GET");
  }

  describe("enqueue sync", () => {
    test("prints the job reference; a second request while one waits is merged into it", async () => {
      const first = await cli("enqueue", "sync", "--config", configPath, "--project", "67");
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/^sync of project 67 queued: job 67\/\S+\n$/);
      const ref = refIn(first.out);

      const second = await cli("enqueue", "sync", "--config", configPath, "--project", "67");
      expect(second.code).toBe(0);
      expect(second.out).toBe(`a sync of project 67 was already waiting (job ${ref}); this request joined it\n`);
      const json = await cli("enqueue", "sync", "--config", configPath, "--project", "67", "--json");
      expect(JSON.parse(json.out)).toEqual({ job_id: ref, status: "merged" });

      const jobs = await allJobs(queues);
      expect(jobs.map((job) => [job.id, job.name, job.data])).toEqual([
        [idOf(ref), "sync.run", { project: 67, full: false, allow_mass_delete: false, trigger: "cli" }],
      ]);
      expect(await jobs[0]?.getState()).toBe("waiting");
    });

    test("enqueue sync --full merged into a waiting plain sync keeps --full", async () => {
      const plain = refIn((await cli("enqueue", "sync", "--config", configPath, "--project", "67")).out);
      const full = await cli("enqueue", "sync", "--config", configPath, "--project", "67", "--full", "--json");
      expect(full.code).toBe(0);

      // Merged into the waiting sync (no worker runs), and that sync now replaces every collection.
      expect(JSON.parse(full.out)).toEqual({ job_id: plain, status: "merged" });
      const jobs = await allJobs(queues);
      expect(jobs.map((job) => [job.id, job.data])).toEqual([
        [idOf(plain), { project: 67, full: true, allow_mass_delete: false, trigger: "cli" }],
      ]);
      expect(await jobs[0]?.getState()).toBe("waiting");
    });

    test("exits 2 for an unknown project, a missing or wrong positional", async () => {
      const unknown = await cli("enqueue", "sync", "--config", configPath, "--project", "5");
      expect(unknown.code).toBe(2);
      expect(unknown.err).toMatch(/project 5 is not configured/);
      const missing = await cli("enqueue", "--config", configPath, "--project", "67");
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(/what to enqueue: `sync`/);
      const wrong = await cli("enqueue", "plan", "--config", configPath, "--project", "67");
      expect(wrong.code).toBe(2);
      expect(await allJobs(queues)).toEqual([]);
    });

    test("enqueue sync while a sync is running (none waiting) says a follow-up will run, and one does", async () => {
      // The PIM holds the first sync's reads: it is still running when the second request comes.
      const gate = sims.pim.holdRequests({ path: PIM_API });
      await startInProcessWorker();
      const first = refIn((await cli("enqueue", "sync", "--config", configPath, "--project", "67")).out);
      await waitForJobState(queues, PROJECT, idOf(first), "active", 10_000);
      await gate.reached(1, 10_000);

      const second = await cli("enqueue", "sync", "--config", configPath, "--project", "67", "--json");
      gate.open();
      expect(second.code).toBe(0);
      const answer = JSON.parse(second.out) as { job_id: string; status: string };

      // The request is kept (BullMQ's keepLastIfActive): once the running sync is done, a
      // second sync job runs, under its own id.
      await waitForJobState(queues, PROJECT, idOf(first), "completed", 20_000);
      const followUp = await waitFor(async () => (await allJobs(queues)).find((job) => job.name === "sync.run" && job.id !== idOf(first)), {
        timeoutMs: 10_000,
        what: "the follow-up sync job",
      });
      await waitForJobState(queues, PROJECT, followUp.id ?? "", "completed", 20_000);
      expect(followUp.data).toMatchObject({ project: 67, trigger: "cli" });

      // The follow-up's id does not exist until BullMQ creates it, so the answer names the
      // running job it follows.
      expect(answer).toEqual({ job_id: first, status: "follows-running" });
    });
  });

  describe("add-options", () => {
    test("queues a job by default and prints its reference; --idempotency-key makes repeats one job", async () => {
      const queued = await cli(
        ...addOptionsArgs(configPath, { attribute: "color", options: '[{"name":"teal","label":{"en_US":"Teal"}}]' }),
        "--requested-by",
        "ops",
      );
      expect(queued.code).toBe(0);
      expect(queued.out).toMatch(/^add-options queued: job 67\/\S+\n$/);
      const ref = refIn(queued.out);
      const job = await queues.queueFor(PROJECT).getJob(idOf(ref));
      expect(job?.name).toBe("options.add");
      expect(job?.data).toEqual({
        project: 67,
        attribute: "color",
        options: [{ name: "teal", label: { "en-US": "Teal" } }],
        requested_by: "ops",
      });
      expect(await job?.getState()).toBe("waiting");

      const args = [
        ...addOptionsArgs(configPath, { attribute: "color", options: '[{"name":"mint"}]' }),
        "--idempotency-key",
        "k-1",
        "--json",
      ];
      const keyed = JSON.parse((await cli(...args)).out) as { job_id: string; status: string };
      expect(keyed.status).toBe("queued");
      const again = await cli(...args);
      expect(JSON.parse(again.out)).toEqual({ job_id: keyed.job_id, status: "duplicate" });
      const plain = await cli(...args.filter((arg) => arg !== "--json"));
      expect(plain.out).toBe(`add-options already queued: job ${keyed.job_id}\n`);
      expect((await allJobs(queues)).length).toBe(2);
      // Queued only: nothing reached the service or the PIM.
      expect(writesTo()).toEqual([]);
      expect(sims.pim.requests).toEqual([]);
    });

    test("--idempotency-key reused with other options: exit 2 with the reason, nothing queued", async () => {
      const base = ["add-options", "--config", configPath, "--project", "67", "--attribute", "color", "--idempotency-key", "k-2", "--json"];
      const first = JSON.parse((await cli(...base, "--options", '[{"name":"mint"}]')).out) as { job_id: string; status: string };
      expect(first.status).toBe("queued");

      const other = await cli(...base, "--options", '[{"name":"sand"}]');
      expect(other.code).toBe(2);
      expect(other.err).toContain(
        `--idempotency-key: already used for another request body (job ${first.job_id}); use a new key for a new request`,
      );
      // Under --json the failure is also an object on stdout, for scripts.
      expect(JSON.parse(other.out)).toMatchObject({
        error: { kind: "usage", exit_code: 2, message: expect.stringContaining("--idempotency-key: already used") },
      });
      expect((await allJobs(queues)).map((job) => job.data)).toEqual([
        { project: 67, attribute: "color", options: [{ name: "mint", label: {} }] },
      ]);
    });

    test("--once adds in this process and prints per collection what was added and what was already there", async () => {
      const args = [
        ...addOptionsArgs(configPath, { attribute: "material", options: '[{"name":"linen","label":{"en-US":"Linen","fr_FR":"Lin"}}]' }),
        "--once",
      ];
      const first = await cli(...args);

      expect(first.err).toBe("");
      expect(first.code).toBe(0);
      expect(first.out.trim().split("\n").sort()).toEqual([
        "material-de_DE: added linen",
        "material-en_US: added linen",
        "material-fr_FR: added linen",
      ]);
      for (const name of ["material-en_US", "material-fr_FR", "material-de_DE"]) {
        expect(sims.service.collections().find((c) => c.project === PROJECT && c.name === name)?.options).toEqual([
          { name: "linen", label: { "en-US": "Linen", "fr-FR": "Lin" } },
        ]);
      }
      expect(sims.pim.state.attribute_options.material?.some((o) => o.code === "linen")).toBe(true);

      const second = await cli(...args, "--options", '[{"name":"linen"},{"name":"hemp"}]');
      expect(second.code).toBe(0);
      expect(second.out).toMatch(/^material-en_US: added hemp; already there: linen$/m);
      expect(second.out).toMatch(/^material-de_DE: added hemp; already there: linen$/m);
      const json = await cli(...args, "--options", '[{"name":"hemp"}]', "--json");
      const report = JSON.parse(json.out) as {
        project: number;
        attribute: string;
        collections: { collection: string; added: string[]; skipped: string[] }[];
        missing: string[];
      };
      expect(report).toMatchObject({ project: 67, attribute: "material", missing: [] });
      expect(report.collections.map((c) => [c.collection, c.added, c.skipped]).sort()).toEqual([
        ["material-de_DE", [], ["hemp"]],
        ["material-en_US", [], ["hemp"]],
        ["material-fr_FR", [], ["hemp"]],
      ]);
      expect(await allJobs(queues)).toEqual([]);
    });

    test.each([
      { what: "options that are not JSON", args: ["--attribute", "color", "--options", "[{"], problem: /--options is not valid JSON/ },
      {
        what: "an option name outside the PIM code rule",
        args: ["--attribute", "color", "--options", '[{"name":"te al"}]'],
        problem: /options\.0\.name: option names may contain only letters, digits and underscores/,
      },
      {
        what: "an empty option list",
        args: ["--attribute", "color", "--options", "[]"],
        problem: /options: at least one option is needed/,
      },
      {
        what: "a label key that is not a locale",
        args: ["--attribute", "color", "--options", '[{"name":"teal","label":{"english":"Teal"}}]'],
        problem: /options\.0\.label\.english: label keys must be locale codes/,
      },
      {
        what: "an attribute that is not allowlisted",
        args: ["--attribute", "size_eu", "--options", '[{"name":"xl"}]'],
        problem: /attribute 'size_eu' is not in allowed_options_for_pim_attribute_addition of project 67/,
      },
      { what: "a missing --attribute", args: ["--options", '[{"name":"xl"}]'], problem: /--attribute is required/ },
      {
        what: "an unknown project",
        args: ["--project", "5", "--attribute", "color", "--options", '[{"name":"xl"}]'],
        problem: /project 5 is not in/,
      },
    ])("exits 2 naming the problem for $what: nothing queued, nothing written (queued and --once)", async ({ args, problem }) => {
      for (const once of [[], ["--once"]]) {
        const withProject = args.includes("--project") ? args : ["--project", "67", ...args];
        const result = await cli("add-options", "--config", configPath, ...withProject, ...once);
        expect(result.code).toBe(2);
        expect(result.err).toMatch(problem);
        expect(result.out).toBe("");
      }
      // No job stored (the queue's own `meta` key is from this test's queue handle).
      expect((await redis.keys()).filter((key) => !key.endsWith(":meta"))).toEqual([]);
      expect(writesTo()).toEqual([]);
    });

    test.each([
      {
        what: "an attribute the PIM does not have",
        attribute: "ghost",
        options: '[{"name":"x"}]',
        problem: /attribute 'ghost' does not exist in the PIM/,
      },
      {
        what: "a metric attribute (units cannot be added)",
        attribute: "weight",
        options: '[{"name":"TON"}]',
        problem: /attribute 'weight' \(pim_catalog_metric\) is not a select or reference-entity attribute/,
      },
      {
        what: "a label in a locale the project does not have",
        attribute: "color",
        options: '[{"name":"teal","label":{"es-ES":"Verde azulado"}}]',
        problem: /label locale\(s\) es-ES are not among the project's locales/,
      },
    ])("--once exits 2 for $what, before any write", async ({ attribute, options, problem }) => {
      const result = await cli(...addOptionsArgs(configPath, { attribute, options }), "--once");
      expect(result.code).toBe(2);
      expect(result.err).toMatch(problem);
      expect(writesTo()).toEqual([]);
    });
  });

  describe("jobs list and show", () => {
    test("lists jobs newest first, filtered by --state and --project, or as --json", async () => {
      const sync = refIn((await cli("enqueue", "sync", "--config", configPath, "--project", "67")).out);
      const add = refIn(
        (await cli("add-options", "--config", configPath, "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]')).out,
      );

      const all = await cli("jobs", "list", "--config", configPath);
      expect(all.code).toBe(0);
      const lines = all.out.trim().split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^REF\s+JOB\s+STATE\s+ATTEMPTS\s+CREATED\s+DATA\s+FAILURE$/);
      expect(lines.find((line) => line.startsWith(sync))).toMatch(/sync\.run\s+waiting\s+0\s+\S+\s+trigger cli$/);
      expect(lines.find((line) => line.startsWith(add))).toMatch(/options\.add\s+waiting\s+0\s+\S+\s+color: teal$/);

      const json = JSON.parse((await cli("jobs", "list", "--config", configPath, "--project", "67", "--json")).out) as {
        ref: string;
        name: string;
        state: string;
        project: number;
      }[];
      expect(json.map((job) => [job.ref, job.name, job.state, job.project]).sort()).toEqual(
        [
          [add, "options.add", "waiting", 67],
          [sync, "sync.run", "waiting", 67],
        ].sort(),
      );
      expect(JSON.parse((await cli("jobs", "list", "--config", configPath, "--state", "waiting", "--json")).out)).toHaveLength(2);

      const failed = await cli("jobs", "list", "--config", configPath, "--state", "failed");
      expect(failed).toEqual({ code: 0, out: "no jobs\n", err: "" });
      expect(JSON.parse((await cli("jobs", "list", "--config", configPath, "--state", "completed", "--json")).out)).toEqual([]);

      const badState = await cli("jobs", "list", "--config", configPath, "--state", "exploded");
      expect(badState.code).toBe(2);
      expect(badState.err).toMatch(/--state must be one of failed, waiting/);
      const badProject = await cli("jobs", "list", "--config", configPath, "--project", "5");
      expect(badProject.code).toBe(2);
      expect(badProject.err).toMatch(/project 5 is not configured/);
    });

    test("shows a merged add-options request's own outcome and the run that carried it out", async () => {
      const first = refIn(
        (await cli("add-options", "--config", configPath, "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]')).out,
      );
      const second = refIn(
        (await cli(...addOptionsArgs(configPath, { attribute: "color", options: '[{"name":"navy"},{"name":"teal"}]' }))).out,
      );
      await startInProcessWorker();
      await waitForJobState(queues, PROJECT, idOf(second), "completed", 20_000);

      const shown = await cli("jobs", "show", second, "--config", configPath);
      expect(shown.code).toBe(0);
      expect(shown.out).toMatch(
        new RegExp(
          `^outcome: added: 1 added, 1 already present, 0 collection\\(s\\) missing \\(carried out in the run of ${first}\\)$`,
          "m",
        ),
      );
      expect(shown.out).toMatch(new RegExp(`^result: .*"merged_into":"${idOf(first)}"`, "m"));
    });

    test("shows a job's data, attempts, logs and result once it ran; unknown or malformed references exit 2", async () => {
      await startInProcessWorker();
      const ref = refIn(
        (await cli(...addOptionsArgs(configPath, { attribute: "color", options: '[{"name":"teal","label":{"en-US":"Teal"}}]' }))).out,
      );
      await waitForJobState(queues, PROJECT, idOf(ref), "completed", 20_000);

      const shown = await cli("jobs", "show", ref, "--config", configPath);
      expect(shown.code).toBe(0);
      expect(shown.out).toMatch(new RegExp(`^${ref}\\s+options\\.add\\s+completed\\s+1\\s`));
      expect(shown.out).toContain('data: {"project":67,"attribute":"color","options":[{"name":"teal","label":{"en-US":"Teal"}}]}');
      expect(shown.out).toMatch(/^attempts: 1 made, 1 started$/m);
      expect(shown.out).toMatch(/^log: options added: 1, already there: 0, collections missing: 0$/m);
      expect(shown.out).toMatch(/^outcome: added: 1 added, 0 already present, 0 collection\(s\) missing$/m);
      expect(shown.out).toMatch(/^result: .*"collection":"color","added":\["teal"\]/m);
      expect(shown.out).not.toMatch(/^failure:/m);

      // One project configured: the bare id is enough.
      const bare = JSON.parse((await cli("jobs", "show", idOf(ref), "--config", configPath, "--json")).out) as Record<string, unknown>;
      expect(bare).toMatchObject({
        ref,
        state: "completed",
        attempts_made: 1,
        attempts_started: 1,
        failed_reason: null,
        logs: ["options added: 1, already there: 0, collections missing: 0"],
      });

      const missing = await cli("jobs", "show", "67/404404", "--config", configPath);
      expect(missing.code).toBe(2);
      // One line, not the usage.
      expect(missing.err).toMatch(/^pim-sync jobs: job 67\/404404 not found[^\n]*\n$/);
      const malformed = await cli("jobs", "show", "67/a b", "--config", configPath);
      expect(malformed.code).toBe(2);
      expect(malformed.err).toMatch(/not a job reference/);
      const none = await cli("jobs", "show", "--config", configPath);
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/jobs show takes one job reference/);
    });
  });

  test("jobs list shows a long failure reason whole, the status code at its end included", async () => {
    // A real service URL with long collection ids: the status comes well past 120 characters.
    const reason = `the service refused add-options of teal for 'color': [service PATCH] "https://sdm.customer.example/api/v1/options_collections/${"0f3c9a".repeat(20)}/add-options/": 503 Service Unavailable`;
    const enqueued = await queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "teal" }] });
    // A BullMQ worker of the test's own fails the job with that reason, as the worker would.
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const failing = new Worker(
      queues.queueFor(PROJECT).name,
      async () => {
        throw new UnrecoverableError(reason);
      },
      { connection, prefix: redis.prefix },
    );
    try {
      await waitForJobState(queues, PROJECT, enqueued.jobId, "failed", 20_000);
    } finally {
      await failing.close();
      connection.disconnect();
    }
    const listed = await cli("jobs", "list", "--config", configPath, "--state", "failed");
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(reason);
  });

  describe("jobs retry", () => {
    /** Queues an add-options job and waits until the worker failed it (the service answers 404). */
    async function failedAddOptions(attribute: string, option: string): Promise<string> {
      const ref = refIn((await cli(...addOptionsArgs(configPath, { attribute: attribute, options: `[{"name":"${option}"}]` }))).out);
      await waitForJobState(queues, PROJECT, idOf(ref), "failed", 20_000);
      return ref;
    }

    test("replays a job that failed permanently (404 from the service): it completes once the fault is gone", async () => {
      sims.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_PATH }, { status: 404, times: 50 });
      await startInProcessWorker();
      const ref = await failedAddOptions("color", "teal");

      const failedList = JSON.parse((await cli("jobs", "list", "--config", configPath, "--state", "failed", "--json")).out) as {
        ref: string;
        failed_reason: string;
      }[];
      expect(failedList.map((job) => job.ref)).toEqual([ref]);
      expect(failedList[0]?.failed_reason).toMatch(/404/);
      const failedText = await cli("jobs", "list", "--config", configPath, "--state", "failed", "--project", "67");
      expect(failedText.out).toMatch(new RegExp(`^${ref}\\s+options\\.add\\s+failed\\s+1\\s.*404`, "m"));
      const shown = await cli("jobs", "show", ref, "--config", configPath);
      expect(shown.out).toMatch(/options\.add\s+failed\s+1\s/);
      expect(shown.out).toMatch(/^failure: .*add-options.*404/m);
      expect(shown.out).toMatch(/^result: null$/m);
      // Permanent: failed at the first attempt, not retried 8 times.
      expect(sims.service.requests.filter((r) => ADD_OPTIONS_PATH.test(r.path))).toHaveLength(1);

      sims.service.faults.clear();
      const retried = await cli("jobs", "retry", ref, "--config", configPath);
      expect(retried).toEqual({ code: 0, out: `${ref}: retried\n`, err: "" });
      const done = await waitForJobState(queues, PROJECT, idOf(ref), "completed", 20_000);

      expect(done.returnvalue).toMatchObject({ collections: [{ collection: "color", added: ["teal"] }] });
      expect(
        sims.service
          .collections()
          .find((c) => c.project === PROJECT && c.name === "color")
          ?.options.map((o) => o.name),
      ).toEqual(["teal"]);
      const after = JSON.parse((await cli("jobs", "show", ref, "--config", configPath, "--json")).out) as {
        attempts_made: number;
        failed_reason: string | null;
        state: string;
      };
      expect(after.state).toBe("completed");
      expect(after.attempts_made).toBe(1);
      // The replayed job succeeded: the failed attempt's stack is history, not shown as current.
      const shownAfter = await cli("jobs", "show", ref, "--config", configPath);
      expect(shownAfter.out).not.toMatch(/^(failure|stack):/m);
      expect(shownAfter.out).toMatch(/^earlier attempts: 1 failed before this one/m);

      // A job that is not failed is reported and skipped (exit 1).
      const again = await cli("jobs", "retry", ref, "--config", configPath);
      expect(again.code).toBe(1);
      expect(again.out).toBe(`${ref}: skipped (it is completed, not failed)\n`);
    });

    test("--all-failed replays every failed job; with none failed it says so", async () => {
      sims.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_PATH }, { status: 404, times: 50 });
      await startInProcessWorker();
      const color = await failedAddOptions("color", "teal");
      const brand = await failedAddOptions("brand", "acme_new");

      sims.service.faults.clear();
      const retried = await cli("jobs", "retry", "--all-failed", "--config", configPath, "--project", "67");
      expect(retried.code).toBe(0);
      expect(retried.out.trim().split("\n").sort()).toEqual([`${brand}: retried`, `${color}: retried`].sort());
      await waitForJobState(queues, PROJECT, idOf(color), "completed", 20_000);
      await waitForJobState(queues, PROJECT, idOf(brand), "completed", 20_000);
      expect(
        sims.service
          .collections()
          .find((c) => c.project === PROJECT && c.name === "brand")
          ?.options.map((o) => o.name),
      ).toContain("acme_new");

      const none = await cli("jobs", "retry", "--all-failed", "--config", configPath);
      expect(none).toEqual({ code: 0, out: "no failed jobs\n", err: "" });
      const both = await cli("jobs", "retry", color, "--all-failed", "--config", configPath);
      expect(both.code).toBe(2);
      expect(both.err).toMatch(/not both/);
      const nothing = await cli("jobs", "retry", "--config", configPath);
      expect(nothing.code).toBe(2);
      expect(nothing.err).toMatch(/jobs retry needs job references or --all-failed/);
    });
  });

  test("--help of worker, enqueue, add-options and jobs prints the usage and exits 0", async () => {
    for (const command of ["worker", "enqueue", "add-options", "jobs"]) {
      const help = await cli(command, "--help");
      expect(help.code).toBe(0);
      expect(help.out).toMatch(new RegExp(`^Usage: pim-sync ${command}`));
      expect(help.err).toBe("");
    }
    const short = await cli("jobs", "-h");
    expect(short.out).toMatch(/^Usage: pim-sync jobs/);
  });

  test("without `redis` in the config, the queue commands exit 2 with a clear message", async () => {
    const commands = [
      ["enqueue", "sync", "--config", noRedisConfigPath, "--project", "67"],
      ["add-options", "--config", noRedisConfigPath, "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]'],
      ["jobs", "list", "--config", noRedisConfigPath],
      ["jobs", "show", "67/1", "--config", noRedisConfigPath],
      ["jobs", "retry", "--all-failed", "--config", noRedisConfigPath],
      ["worker", "--config", noRedisConfigPath],
    ];
    for (const argv of commands) {
      const result = await cli(...argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.err, argv.join(" ")).toMatch(/needs `redis` in the config/);
    }
    expect(writesTo()).toEqual([]);
    // --once needs no Redis: the state goes to files under state_dir.
    const once = await cli(...addOptionsArgs(noRedisConfigPath, { attribute: "color", options: '[{"name":"teal"}]' }), "--once");
    expect(once).toEqual({ code: 0, out: "color: added teal\n", err: "" });
  });

  test("the worker command runs queued jobs until it is aborted, then exits 0", async () => {
    const ref = refIn((await cli("enqueue", "sync", "--config", configPath, "--project", "67")).out);
    const controller = new AbortController();
    const io = { ...captureIo(), signal: controller.signal };
    const running = runCli(["worker", "--config", configPath], io);

    await waitForJobState(queues, PROJECT, idOf(ref), "completed", 20_000);
    controller.abort();

    expect(await running).toBe(0);
    // Every line the worker prints is a JSON log record; at log_level silent, there are none.
    expect(io.err()).toBe("");
  });
});
