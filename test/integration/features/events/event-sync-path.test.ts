import { describe, expect } from "vitest";
import { optionEventData } from "../../../../sim/pim/pim-event-emitter.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";
import { servingUrlOf } from "../../../support/process-cli.js";
import { writeTestConfig } from "../../../support/process-config.js";
import { allJobs, collectionsOf, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { createTriggerClient } from "../../../support/trigger-client.js";

/**
 * The targeted syncs PIM events start go through the same sync path as every other run: each
 * write in the change history, held deletions kept as a plan for review, the deletion guard
 * counted across runs, an admin's approval kept while a run goes on, and each target settled on
 * its own. Over the real worker process and the simulators.
 */
const PROJECT = 67;
const SECRET = "event-secret-0123456789abcdef";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const METRICS_TOKEN = "metrics-token-of-the-event-path-test";
const WAIT_MS = 60_000;

interface Entry {
  collection: string;
  option: string;
  kind: string;
  job: string;
  trigger: string;
}
interface Held {
  id: string;
  collections: { collection: string; options: string[]; reason: string }[];
  approved: { by: string } | null;
  run: { job: string; trigger: string };
}

describe("event syncs keep every rule of the one sync path", () => {
  let baseUrl = "";
  const client = createTriggerClient(() => baseUrl);

  let fixtures: Pick<PimSyncFixtures, "sims" | "redis" | "tempDir" | "queues" | "cli">;

  test.beforeEach(({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { sims, redis, tempDir, queues, cli };
  });

  /** A worker whose project takes PIM events, after one full sync (the baseline). */
  async function startWorker(guard: { max_fraction: number; min_count: number; window_ms?: number }): Promise<void> {
    const config = await writeTestConfig(fixtures.tempDir, {
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: fixtures.redis.prefix,
      logLevel: "info",
      server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN, admin: { users: [ADMIN] } },
      projectExtras: {
        pim: { url: fixtures.sims.pim.url, ...simPim(), events: { secret: SECRET, window_ms: 300 } },
        deletion_guard: guard,
      },
    });
    const worker = await fixtures.cli.startWorker(config);
    baseUrl = await servingUrlOf(worker);
    await syncAsAdmin();
    fixtures.sims.pim.events.configure({ url: `${baseUrl}/v1/pim-events/${PROJECT}`, secret: SECRET });
  }
  const simPim = () => ({ client_id: "sim-client", secret: "sim-secret", username: "sim-user", password: "sim-password" });

  const admin = (path: string, method = "GET") =>
    client.call(path, { token: ADMIN.token, method, ...(method === "POST" ? { body: {} } : {}) });
  async function syncAsAdmin(): Promise<{ outcome: string }> {
    const answer = await admin(`/admin/api/projects/${PROJECT}/sync`, "POST");
    expect(answer.status).toBe(202);
    const id = (answer.json as { job_id: string }).job_id.split("/")[1] ?? "";
    return (await waitForJobState(fixtures.queues, PROJECT, id, "completed", WAIT_MS)).returnvalue as { outcome: string };
  }
  const history = async (query: string): Promise<Entry[]> => {
    const answer = await admin(`/admin/api/projects/${PROJECT}/history?limit=1000&${query}`);
    expect(answer.status).toBe(200);
    return (answer.json as { entries: Entry[] }).entries;
  };
  const heldPlans = async (): Promise<Held[]> => ((await admin(`/admin/api/projects/${PROJECT}/held`)).json as { held: Held[] }).held;
  const heldMetric = async (): Promise<number> => {
    const text = (await client.call("/metrics", { token: METRICS_TOKEN })).text;
    return Number(new RegExp(`^pim_sync_held_deletions\\{project="${PROJECT}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? "NaN");
  };
  const optionsOf = (collection: string): string[] =>
    (collectionsOf(fixtures.sims.service, PROJECT)[collection] ?? []).map((option) => option.name);
  const colors = () => fixtures.sims.pim.state.attribute_options["color"] ?? [];
  /** Longer than the targets of a round, so each option is read alone (fewer requests than the list's pages). */
  const lengthenColor = (count: number): void => {
    for (let index = 0; index < count; index += 1)
      colors().push({ code: `filler_${index}`, sort_order: 1_000 + index, labels: { en_US: `Filler ${index}` } });
  };
  /** Removes the options from the PIM and sends one deletion event for each. */
  const deleteInPim = (...codes: string[]): void => {
    fixtures.sims.pim.state.attribute_options["color"] = colors().filter((option) => !codes.includes(option.code));
    for (const code of codes) fixtures.sims.pim.events.emit("attribute-option.deleted", optionEventData("color", code));
  };
  const eventJobs = async () => (await allJobs(fixtures.queues, PROJECT)).filter((job) => job.name === "sync.events");
  const pendingTargets = () => fixtures.redis.redis.hlen(`${fixtures.redis.prefix}:pim-events:${PROJECT}:pending`);

  /** Every event sent so far carried by targeted syncs that all ended: completed, and nothing left pending. */
  async function eventSyncsSettled(): Promise<void> {
    await fixtures.sims.pim.events.idle();
    await waitFor(
      async () => {
        const jobs = await eventJobs();
        const states = await Promise.all(jobs.map((job) => job.getState()));
        return jobs.length > 0 && states.every((state) => state === "completed") && (await pendingTargets()) === 0;
      },
      { timeoutMs: WAIT_MS, what: "every targeted sync to complete with no target pending" },
    );
  }

  test("an option an event sync deletes is in the history under that job, and deletions it holds become a plan an admin sees", async () => {
    lengthenColor(150);
    await startWorker({ max_fraction: 0.02, min_count: 2 });
    deleteInPim("red");
    await waitFor(() => !optionsOf("color").includes("red"), { timeoutMs: WAIT_MS, what: "red deleted from the service" });
    await eventSyncsSettled();
    const [job] = await eventJobs();
    // Newest first: the event sync's deletion, then the first sync's replace.
    expect((await history("option=red")).map(({ kind, trigger }) => [kind, trigger])).toEqual([
      ["deleted", "event"],
      ["replaced", "admin"],
    ]);
    expect((await history("option=red"))[0]).toMatchObject({ collection: "color", job: `${PROJECT}/${job?.id ?? "?"}` });

    // 4 more of 155 would be 5 with red: more than 2 %.
    deleteInPim("black", "blue", "green", "white");
    await waitFor(async () => (await heldPlans()).length === 1, { timeoutMs: WAIT_MS, what: "a held plan" });
    await eventSyncsSettled();
    const [plan] = await heldPlans();
    expect(plan).toMatchObject({
      approved: null,
      run: { trigger: "event" },
      collections: [{ collection: "color", options: ["black", "blue", "green", "white"] }],
    });
    expect(plan?.collections[0]?.reason).toContain("with the 1 deleted in the last 24 h");
    expect(await heldMetric()).toBe(4);
    expect(optionsOf("color")).toEqual(expect.arrayContaining(["black", "blue", "green", "white"]));
  });

  test("a removal arriving three options at a time is held once its total crosses the guard, in one plan a full sync keeps", async () => {
    lengthenColor(450);
    // 2 % of 455 options: 9 may go, the 10th is held.
    await startWorker({ max_fraction: 0.02, min_count: 2 });
    const removed: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const codes = [0, 1, 2].map((index) => `filler_${round * 3 + index}`);
      removed.push(...codes);
      deleteInPim(...codes);
      await eventSyncsSettled();
    }
    const left = optionsOf("color");
    expect(removed.filter((code) => !left.includes(code))).toEqual(removed.slice(0, 9));
    const plans = await heldPlans();
    expect(plans).toHaveLength(1);
    expect(plans[0]?.collections).toEqual([{ collection: "color", options: [...removed.slice(9)].sort(), reason: expect.any(String) }]);
    expect(await heldMetric()).toBe(9);
    // Counted per run alone, the same removal passed any guard: 3 of 455 each time.
    expect((await history("collection=color")).filter((entry) => entry.kind === "deleted")).toHaveLength(9);

    // A full sync reads the whole list: the same 9 are held, the same plan (its id) kept.
    expect(await syncAsAdmin()).toMatchObject({ outcome: "held_back" });
    expect((await heldPlans()).map((plan) => plan.id)).toEqual([plans[0]?.id]);
    expect(optionsOf("color")).toEqual(expect.arrayContaining(removed.slice(9)));
  });

  test("an approval given while a sync runs survives it, and the next sync carries it out", async () => {
    await startWorker({ max_fraction: 0.3, min_count: 2 });
    fixtures.sims.pim.state.attribute_options["color"] = colors().filter((option) => !["black", "blue"].includes(option.code));
    expect(await syncAsAdmin()).toMatchObject({ outcome: "held_back" });
    const [plan] = await heldPlans();
    expect(plan?.approved).toBeNull();

    // The next run reads the plans, then meets a 503 at once and a second one after 3 s, while it runs.
    fixtures.sims.pim.clearRequests();
    fixtures.sims.pim.faults.failNext({ method: "GET", path: "/api/rest/v1/attributes" }, { status: 503 });
    fixtures.sims.pim.faults.failNext({ method: "GET", path: "/api/rest/v1/attributes" }, { status: 503, delayMs: 3_000 });
    const running = await admin(`/admin/api/projects/${PROJECT}/sync`, "POST");
    const runningId = (running.json as { job_id: string }).job_id.split("/")[1] ?? "";
    await waitFor(
      () => fixtures.sims.pim.requests.some((request) => request.path === "/api/rest/v1/attributes" && request.status === 503),
      {
        timeoutMs: WAIT_MS,
        what: "the running sync's first read refused",
      },
    );
    const approved = await admin(`/admin/api/projects/${PROJECT}/held/${plan?.id ?? "?"}/approve`, "POST");
    expect(approved.status).toBe(200);
    const during = await waitForJobState(fixtures.queues, PROJECT, runningId, "completed", WAIT_MS);
    expect((during.returnvalue as { outcome: string }).outcome).toBe("held_back");
    expect(fixtures.sims.pim.faults.pending()).toBe(0);
    // The run that read the plan before the approval did not write its older copy back.
    expect((await heldPlans()).find((candidate) => candidate.id === plan?.id)?.approved).toMatchObject({ by: ADMIN.name });

    expect(await syncAsAdmin()).toMatchObject({ outcome: "done" });
    expect(optionsOf("color")).not.toContain("black");
    expect(optionsOf("color")).not.toContain("blue");
    expect(await heldPlans()).toEqual([]);
  });

  /**
   * 600 of color's 1,005 options leave the PIM at once (no event): a full sync holds them all in
   * one plan. Long enough that an event sync of a few options reads them alone, not the list.
   */
  async function holdSixHundred(): Promise<{ plan: Held; gone: string[] }> {
    lengthenColor(1_000);
    await startWorker({ max_fraction: 0.5, min_count: 10 });
    const gone = Array.from({ length: 600 }, (_, index) => `filler_${index}`);
    fixtures.sims.pim.state.attribute_options["color"] = colors().filter((option) => !gone.includes(option.code));
    expect(await syncAsAdmin()).toMatchObject({ outcome: "held_back" });
    const plans = await heldPlans();
    expect(plans).toHaveLength(1);
    expect(plans[0]?.collections[0]?.options).toHaveLength(600);
    return { plan: plans[0] as Held, gone };
  }

  test("options a pending plan holds are never deleted by event syncs of them, however few arrive at a time", async () => {
    const { plan, gone } = await holdSixHundred();
    // Their removal's events arrive five at a time: each targeted sync would pass the guard alone.
    for (let round = 0; round < 4; round += 1) {
      const codes = gone.slice(round * 5, round * 5 + 5);
      for (const code of codes) fixtures.sims.pim.events.emit("attribute-option.deleted", optionEventData("color", code));
      await eventSyncsSettled();
    }
    expect(optionsOf("color")).toEqual(expect.arrayContaining(gone));
    expect((await history("collection=color")).filter((entry) => entry.kind === "deleted")).toEqual([]);
    // The same plan, every option still in it, nobody's approval taken for granted.
    const plans = await heldPlans();
    expect(plans.map(({ id, approved }) => ({ id, approved }))).toEqual([{ id: plan.id, approved: null }]);
    expect(plans[0]?.collections[0]?.options).toHaveLength(600);
    expect(await heldMetric()).toBe(600);
  });

  test("an approved plan survives an event sync of another option of its collection, and the next full sync carries it out", async () => {
    const { plan, gone } = await holdSixHundred();
    expect((await admin(`/admin/api/projects/${PROJECT}/held/${plan.id}/approve`, "POST")).status).toBe(200);
    colors().push({ code: "teal", sort_order: 100, labels: { en_US: "Teal" } });
    fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("color", "teal"));
    await eventSyncsSettled();
    expect(optionsOf("color")).toContain("teal");
    // It looked at teal only: the approval of the 600 stands, none of them deleted yet.
    const [still] = await heldPlans();
    expect(still).toMatchObject({ id: plan.id, approved: { by: ADMIN.name } });
    expect(still?.collections[0]?.options).toHaveLength(600);
    expect(optionsOf("color")).toEqual(expect.arrayContaining(gone));

    expect(await syncAsAdmin()).toMatchObject({ outcome: "done" });
    expect(optionsOf("color").filter((name) => gone.includes(name))).toEqual([]);
    expect(await heldPlans()).toEqual([]);
    expect((await history("collection=color")).filter((entry) => entry.kind === "deleted")).toHaveLength(600);
  });

  test("a target whose collection refuses writes is given up at once; the other targets of the run are written and settled", async () => {
    await startWorker({ max_fraction: 0.5, min_count: 10 });
    const color = fixtures.sims.service.collections().find((collection) => collection.name === "color" && collection.project === PROJECT);
    fixtures.sims.service.faults.failNext(
      { method: "PATCH", path: `/api/v1/options_collections/${color?.id ?? 0}/update-options/` },
      { status: 400, times: 100 },
    );
    colors().push({ code: "teal", sort_order: 100, labels: { en_US: "Teal" } });
    const seasons = fixtures.sims.pim.state.attribute_options["season"] ?? [];
    seasons.push({ code: "monsoon", sort_order: 100, labels: { en_US: "Monsoon" } });
    fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("color", "teal"));
    fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("season", "monsoon"));
    await eventSyncsSettled();
    expect(optionsOf("season-ecommerce")).toContain("monsoon");
    expect(optionsOf("color")).not.toContain("teal");
    const jobs = await eventJobs();
    // One run: nothing retried, nothing failed.
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.attemptsMade).toBe(1);
    expect(jobs[0]?.returnvalue).toMatchObject({ given_up: 1 });
  });

  test("a target whose collection fails for a while is retried alone, a bounded number of times, then left to the schedule", async () => {
    await startWorker({ max_fraction: 0.5, min_count: 10 });
    fixtures.sims.pim.clearRequests();
    const color = fixtures.sims.service.collections().find((collection) => collection.name === "color" && collection.project === PROJECT);
    fixtures.sims.service.faults.failNext(
      { method: "PATCH", path: `/api/v1/options_collections/${color?.id ?? 0}/update-options/` },
      { status: 503, times: 1000 },
    );
    colors().push({ code: "teal", sort_order: 100, labels: { en_US: "Teal" } });
    (fixtures.sims.pim.state.attribute_options["season"] ?? []).push({ code: "monsoon", sort_order: 100, labels: { en_US: "Monsoon" } });
    fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("color", "teal"));
    fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("season", "monsoon"));
    await waitFor(() => optionsOf("season-ecommerce").includes("monsoon"), {
      timeoutMs: WAIT_MS,
      what: "monsoon written on the first run",
    });
    await eventSyncsSettled();
    const [job] = await eventJobs();
    // Three runs (the first, and two retries of the color target alone), then given up.
    expect(job?.attemptsMade).toBe(3);
    expect(job?.returnvalue).toMatchObject({ given_up: 1 });
    // The season target was settled by the first run: its list (one page) was read once.
    expect(fixtures.sims.pim.requests.filter((request) => request.path === "/api/rest/v1/attributes/season/options")).toHaveLength(1);
    expect(fixtures.sims.pim.requests.filter((request) => request.path.startsWith("/api/rest/v1/attributes/color/options"))).toHaveLength(
      3,
    );
    expect(optionsOf("color")).not.toContain("teal");
  }, 180_000);
});
