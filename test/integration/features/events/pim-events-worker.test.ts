import { describe, expect } from "vitest";
import { signBody } from "../../../../src/features/events/event-signature.js";
import { optionEventData } from "../../../../sim/pim/pim-event-emitter.js";
import type { CliProcess } from "../../../support/process-cli.js";
import { SIM_CREDENTIALS } from "../../../support/process-config.js";
import { allJobs, collectionsOf, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { simPimClient } from "../../../support/sim-pim-client.js";
import { startWorkerCommand, type ProcessTestFixtures } from "../../../support/worker-process.js";
import { test } from "../../../support/fixtures.js";

const PROJECT = 67;
const SECRET = "event-secret-0123456789abcdef";
const WAIT_MS = 60_000;
const TRIGGER_TOKEN = "events-trigger-token-0123456789";

describe("PIM events through the worker process and the simulators", () => {
  let fixtures: ProcessTestFixtures;
  let worker: CliProcess;
  let receiver: string;
  let serverUrl: string;

  test.beforeEach(({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
  });

  /** A worker whose project 67 subscribes to events, after one full sync (the exact baseline). */
  async function startWorker(
    projectExtras: Record<string, unknown> = {},
    windowMs = 300,
    eventsExtras: Record<string, unknown> = {},
  ): Promise<void> {
    ({ worker, url: serverUrl } = await startWorkerCommand(
      fixtures,
      {
        server: { port: 0 },
        trigger: { token: TRIGGER_TOKEN },
        projectExtras: {
          pim: {
            url: fixtures.sims.pim.url,
            ...SIM_CREDENTIALS.pim,
            events: { secret: "${PIM_EVENTS_SECRET}", window_ms: windowMs, ...eventsExtras },
          },
          ...projectExtras,
        },
      },
      { env: { PIM_EVENTS_SECRET: SECRET }, timeoutMs: WAIT_MS },
    ));
    receiver = `${serverUrl}/v1/pim-events/${PROJECT}`;
    const sync = await fixtures.queues.enqueue("sync.run", { project: PROJECT, trigger: "api" });
    await waitForJobState(fixtures.queues, PROJECT, sync.jobId, "completed", WAIT_MS);
    fixtures.sims.pim.events.configure({ url: receiver, secret: SECRET });
  }

  const pim = () => simPimClient(fixtures.sims.pim.url);

  /**
   * Makes the PIM's color list `count` options longer (its sample list is one page). Before the
   * worker's first sync, so the state it plans against has them: an option is read alone only
   * when that costs fewer requests than the list's pages (e.g. 150 options: 2 pages).
   */
  const lengthenColor = (count: number): void => {
    for (let index = 0; index < count; index += 1)
      fixtures.sims.pim.state.attribute_options["color"]?.push({
        code: `filler_${index}`,
        sort_order: 1_000 + index,
        labels: { en_US: `Filler ${index}` },
      });
  };

  const optionsOf = (collection: string): string[] =>
    (collectionsOf(fixtures.sims.service, PROJECT)[collection] ?? []).map((option) => option.name);

  async function eventSyncsDone(): Promise<number> {
    await fixtures.sims.pim.events.idle();
    return waitFor(
      async () => {
        const jobs = (await allJobs(fixtures.queues, PROJECT)).filter((job) => job.name === "sync.events");
        const states = await Promise.all(jobs.map((job) => job.getState()));
        return jobs.length > 0 &&
          states.every((state) => state === "completed") &&
          (await fixtures.redis.redis.hlen(`${fixtures.redis.prefix}:pim-events:${PROJECT}:pending`)) === 0
          ? jobs.length
          : false;
      },
      { timeoutMs: WAIT_MS, what: "every targeted sync to complete" },
    );
  }

  test("an option created in the PIM reaches the service through a signed event, read with one GET of that option", async () => {
    lengthenColor(150);
    await startWorker();
    fixtures.sims.pim.clearRequests();
    await pim().upsertAttributeOptions("color", [{ code: "teal", labels: { en_US: "Teal" } }]);
    await waitFor(() => optionsOf("color").includes("teal"), { timeoutMs: WAIT_MS, what: "teal in the service's color collection" });
    const paths = fixtures.sims.pim.requests.filter((request) => request.method === "GET").map((request) => request.path);
    // Option-level: the option alone, no page of the attribute's list.
    expect(paths.filter((path) => path.includes("/options"))).toEqual(["/api/rest/v1/attributes/color/options/teal"]);
    expect(paths).not.toContain("/api/rest/v1/families");
    const head = await fetch(receiver, { method: "HEAD" });
    expect(head.status).toBe(200);
    // Blind-spot metric: how long since the subscription last delivered.
    const metrics = await (await fetch(new URL("/metrics", receiver))).text();
    expect(metrics).toMatch(new RegExp(`^pim_sync_pim_event_age_seconds\\{project="${PROJECT}"\\} \\d`, "m"));
  });

  test("an event sync's completion leaves no final-status record, a full sync's does; its ref answers 404 once BullMQ removed it", async () => {
    await startWorker();
    const statusKey = (id: string): string => `${fixtures.redis.prefix}:job-status:${PROJECT}:${id}`;
    await pim().upsertAttributeOptions("color", [{ code: "teal", labels: { en_US: "Teal" } }]);
    await eventSyncsDone();
    const [eventJob] = (await allJobs(fixtures.queues, PROJECT)).filter((job) => job.name === "sync.events");
    if (eventJob?.id === undefined) throw new Error("no sync.events job");
    // Records are written in the order the jobs end, on one connection: once the later sync's
    // record is there, the event sync's would be too.
    const sync = await fixtures.queues.enqueue("sync.run", { project: PROJECT, trigger: "api" });
    await waitForJobState(fixtures.queues, PROJECT, sync.jobId, "completed", WAIT_MS);
    await waitFor(async () => (await fixtures.redis.redis.exists(statusKey(sync.jobId))) === 1, {
      timeoutMs: WAIT_MS,
      what: "the sync's final status",
    });
    expect(await fixtures.redis.redis.exists(statusKey(eventJob.id))).toBe(0);

    const ask = (id: string): Promise<Response> =>
      fetch(`${serverUrl}/v1/jobs/${PROJECT}/${id}`, { headers: { authorization: `Bearer ${TRIGGER_TOKEN}` } });
    expect((await ask(eventJob.id)).status).toBe(200);
    await fixtures.queues.queueFor(PROJECT).remove(eventJob.id);
    await fixtures.queues.queueFor(PROJECT).remove(sync.jobId);
    const gone = await ask(eventJob.id);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: `no job ${PROJECT}/${eventJob.id}` });
    // The full sync still answers from its record.
    const kept = await ask(sync.jobId);
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ name: "sync.run", state: "completed" });
  });

  test("a bad or missing signature is refused 401 and changes nothing", async () => {
    await startWorker();
    const body = JSON.stringify({
      specversion: "1.0",
      id: "evt-1",
      type: "com.akeneo.pim.v1.attribute-option.created",
      subject: "t",
      data: optionEventData("color", "teal"),
    });
    fixtures.sims.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 99, labels: { en_US: "Teal" } });
    const missing = await fetch(receiver, { method: "POST", headers: { "content-type": "application/json" }, body });
    const wrong = await fetch(receiver, {
      method: "POST",
      headers: { "content-type": "application/json", "x-akeneo-signature-primary": signBody(body, "another-secret-0123456789") },
      body,
    });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(
      await fixtures.redis.redis.exists(
        `${fixtures.redis.prefix}:pim-events:${PROJECT}:pending`,
        `${fixtures.redis.prefix}:pim-events:${PROJECT}:seen-on:${Math.floor(Date.now() / 86_400_000)}`,
      ),
    ).toBe(0);
    expect((await allJobs(fixtures.queues, PROJECT)).filter((job) => job.name === "sync.events")).toEqual([]);
    // The same body, signed: accepted.
    const signed = await fetch(receiver, {
      method: "POST",
      headers: { "content-type": "application/json", "x-akeneo-signature-primary": signBody(body, SECRET) },
      body,
    });
    expect(signed.status).toBe(200);
    await waitFor(() => optionsOf("color").includes("teal"), { timeoutMs: WAIT_MS, what: "teal after the signed event" });
  });

  test("an event of a synced type without the codes it needs is answered 200 unusable, counted, and warned of once a minute", async () => {
    await startWorker();
    const post = async (id: string, type: string, data: unknown) => {
      const body = JSON.stringify({ specversion: "1.0", id, type: `com.akeneo.pim.v1.${type}`, source: "pim", data });
      const response = await fetch(receiver, {
        method: "POST",
        headers: { "content-type": "application/json", "x-akeneo-signature-primary": signBody(body, SECRET) },
        body,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const noOption = { attribute_option: { attribute: { code: "color" } } };
    expect(await post("unusable-1", "attribute-option.updated", noOption)).toEqual({
      status: 200,
      body: { status: "unusable", reason: "data.attribute_option.code or data.attribute_option.attribute.code missing" },
    });
    expect((await post("unusable-2", "attribute.updated", {})).body).toMatchObject({ status: "unusable" });
    expect((await post("unusable-2", "attribute.updated", {})).body).toEqual({ status: "duplicate" });
    expect((await post("family-1", "family.updated", { family: { code: "shoes" } })).body).toEqual({ status: "ignored" });
    expect((await post("accepted-1", "attribute-option.updated", optionEventData("color", "red"))).body).toEqual({ status: "recorded" });
    const metrics = await (await fetch(new URL("/metrics", receiver))).text();
    const count = (outcome: string) =>
      new RegExp(`^pim_sync_pim_events_received_total\\{project="${PROJECT}",outcome="${outcome}"\\} (\\d+)`, "m").exec(metrics)?.[1];
    expect(["accepted", "duplicate", "ignored", "unusable", "refused"].map(count)).toEqual(["1", "1", "1", "2", "0"]);
    // One warning for both unusable events: the second falls within the minute. The line of the
    // event posted after them comes later on the same stream.
    await worker.waitForLog((line) => line.msg === "PIM event recorded" && line.event === "accepted-1", WAIT_MS, "the last event's line");
    const warnings = worker.logs().filter((line) => line.msg === "PIM event unusable: recorded, nothing synced");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      project: PROJECT,
      event: "unusable-1",
      type: "com.akeneo.pim.v1.attribute-option.updated",
    });
  });

  test("duplicated and reordered events end in the exact state a full sync leaves", async () => {
    await startWorker();
    fixtures.sims.pim.events.configure({ url: receiver, secret: SECRET, duplicates: 2, reorderBatch: 4 });
    const client = pim();
    await client.upsertAttributeOptions("color", [{ code: "teal", labels: { en_US: "Teal" } }]);
    await client.upsertAttributeOptions("color", [{ code: "teal", labels: { en_US: "Teal blue" } }]);
    await client.upsertAttributeOptions("season", [{ code: "monsoon", labels: { en_US: "Monsoon" } }]);
    await client.upsertAttributeOptions("size_eu", [{ code: "xxl", labels: { en_US: "XXL", fr_FR: "XXL" } }]);
    await eventSyncsDone();
    expect(collectionsOf(fixtures.sims.service, PROJECT)["color"]).toContainEqual({ name: "teal", label: { "en-US": "Teal blue" } });
    // A full sync now finds nothing to write: the targeted syncs left the exact state.
    const writesBefore = Object.values(fixtures.sims.service.writes()).flat().length;
    const full = await fixtures.queues.enqueue("sync.run", { project: PROJECT, trigger: "api" });
    await waitForJobState(fixtures.queues, PROJECT, full.jobId, "completed", WAIT_MS);
    expect(Object.values(fixtures.sims.service.writes()).flat().length).toBe(writesBefore);
  });

  test("events spread over less than the merge window are one targeted sync job and one read of each option", async () => {
    // 5 single reads must cost less than the list: 6 pages.
    lengthenColor(600);
    // Long enough for the events below on a busy machine: they take a few requests each.
    // A quiet gap as long as the window: the events below come slower than the default gap.
    await startWorker({}, 5_000, { quiet_ms: 5_000 });
    fixtures.sims.pim.clearRequests();
    const eventSyncJobs = async () => (await allJobs(fixtures.queues, PROJECT)).filter((job) => job.name === "sync.events");
    const changes = 5;
    for (let index = 0; index < changes; index += 1) {
      // A change made in the PIM (not through its API), then the platform's event for it.
      fixtures.sims.pim.state.attribute_options["color"]?.push({
        code: `spread_${index}`,
        sort_order: 100 + index,
        labels: { en_US: `Spread ${index}` },
      });
      fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("color", `spread_${index}`));
      await fixtures.sims.pim.events.idle();
      // Each next event only once the receiver's job is scheduled for later (the window) or
      // done: without a window every event would then be synced on its own.
      await waitFor(
        async () => {
          const states = await Promise.all((await eventSyncJobs()).map((job) => job.getState()));
          return states.length > 0 && states.every((state) => state === "delayed" || state === "completed");
        },
        { timeoutMs: WAIT_MS, what: `the targeted sync of event ${index} to be scheduled or done` },
      );
    }
    await eventSyncsDone();
    expect(optionsOf("color").filter((name) => name.startsWith("spread_"))).toHaveLength(changes);
    expect(await eventSyncJobs()).toHaveLength(1);
    const reads = fixtures.sims.pim.requests
      .filter((request) => request.method === "GET" && request.path.startsWith("/api/rest/v1/attributes/color/options"))
      .map((request) => request.path);
    expect(reads.sort()).toEqual(Array.from({ length: changes }, (_, index) => `/api/rest/v1/attributes/color/options/spread_${index}`));
  });

  test("a burst followed by silence is synced once no event came for quiet_ms, long before window_ms", async () => {
    // The longest window the settings allow: a sync before it ends can only come from the quiet gap.
    const windowMs = 60_000;
    await startWorker({}, windowMs, { quiet_ms: 100 });
    const codes = ["quiet_a", "quiet_b", "quiet_c"];
    for (const [index, code] of codes.entries()) {
      fixtures.sims.pim.state.attribute_options["color"]?.push({ code, sort_order: 300 + index, labels: { en_US: code } });
      fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("color", code));
    }
    await waitFor(() => codes.every((code) => optionsOf("color").includes(code)), {
      timeoutMs: WAIT_MS,
      what: "the burst's options in the service",
    });
    const jobs = (await allJobs(fixtures.queues, PROJECT)).filter((job) => job.name === "sync.events");
    const lastEventAt = Number(await fixtures.redis.redis.get(`${fixtures.redis.prefix}:pim-events:${PROJECT}:last`));
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job.processedOn ?? Number.POSITIVE_INFINITY).toBeLessThan(job.timestamp + windowMs);
    // The last job started after the burst's last event arrived: the gap closed the window.
    expect(Math.max(...jobs.map((job) => job.processedOn ?? 0))).toBeGreaterThanOrEqual(lastEventAt);
  });

  test("a delete event deletes only once the PIM confirms the option is gone", async () => {
    lengthenColor(150);
    await startWorker();
    const announce = (): void => fixtures.sims.pim.events.emit("attribute-option.deleted", optionEventData("color", "red"));
    expect(optionsOf("color")).toContain("red");
    // Announced before the PIM has removed it: nothing is deleted.
    announce();
    await eventSyncsDone();
    expect(optionsOf("color")).toContain("red");
    const colors = fixtures.sims.pim.state.attribute_options["color"] ?? [];
    fixtures.sims.pim.state.attribute_options["color"] = colors.filter((option) => option.code !== "red");
    fixtures.sims.pim.clearRequests();
    announce();
    await waitFor(() => !optionsOf("color").includes("red"), { timeoutMs: WAIT_MS, what: "red deleted from the service" });
    // The PIM's 404 for the option alone confirmed it: no list read, no second question.
    const reads = fixtures.sims.pim.requests
      .filter((request) => request.method === "GET" && request.path.startsWith("/api/rest/v1/attributes/color/options"))
      .map((request) => request.path);
    expect(reads).toEqual(["/api/rest/v1/attributes/color/options/red"]);
    expect(optionsOf("color").sort()).toEqual(
      colors
        .filter((option) => option.code !== "red")
        .map((option) => option.code)
        .sort(),
    );
  });

  test("deletions the guard would hold from a full sync are held from option events the same way", async () => {
    // 4 deletions of 455 options (5 pages: read alone), more than the guard's 0.5 %.
    lengthenColor(450);
    await startWorker({ deletion_guard: { max_fraction: 0.005, min_count: 2 } }, 5_000, { quiet_ms: 5_000 });
    const before = optionsOf("color");
    const colors = fixtures.sims.pim.state.attribute_options["color"] ?? [];
    const deleted = colors.slice(1, 5);
    fixtures.sims.pim.state.attribute_options["color"] = colors.filter((option) => !deleted.includes(option));
    fixtures.sims.pim.clearRequests();
    // One event per deleted option, all in one targeted sync (the window is long enough).
    for (const option of deleted) fixtures.sims.pim.events.emit("attribute-option.deleted", optionEventData("color", option.code));
    await eventSyncsDone();
    // Read option by option (each 404), not as the list.
    expect(fixtures.sims.pim.requests.filter((request) => request.path === "/api/rest/v1/attributes/color/options")).toEqual([]);
    const [job] = (await allJobs(fixtures.queues, PROJECT)).filter((candidate) => candidate.name === "sync.events");
    expect((job?.returnvalue as { outcome?: string } | undefined)?.outcome).toBe("held_back");
    expect(optionsOf("color")).toEqual(before);
  });

  test("a relabelled option reaches the service from its event, read alone", async () => {
    lengthenColor(150);
    await startWorker();
    fixtures.sims.pim.clearRequests();
    await pim().upsertAttributeOptions("color", [{ code: "red", labels: { en_US: "Crimson" } }]);
    await eventSyncsDone();
    // The PIM merges the new label into the option's others.
    expect(collectionsOf(fixtures.sims.service, PROJECT)["color"]?.find((option) => option.name === "red")?.label["en-US"]).toBe("Crimson");
    const reads = fixtures.sims.pim.requests
      .filter((request) => request.method === "GET" && request.path.startsWith("/api/rest/v1/attributes/color/options"))
      .map((request) => request.path);
    expect(reads).toEqual(["/api/rest/v1/attributes/color/options/red"]);
  });

  test("more pending options of one attribute than its list has pages read the list once, not each option", async () => {
    // 155 options: 2 pages, against 3 single reads.
    lengthenColor(150);
    await startWorker({}, 5_000, { quiet_ms: 5_000 });
    fixtures.sims.pim.clearRequests();
    const codes = ["burst_a", "burst_b", "burst_c"];
    for (const [index, code] of codes.entries()) {
      fixtures.sims.pim.state.attribute_options["color"]?.push({ code, sort_order: 200 + index, labels: { en_US: code } });
      fixtures.sims.pim.events.emit("attribute-option.created", optionEventData("color", code));
    }
    expect(await eventSyncsDone()).toBe(1);
    expect(optionsOf("color")).toEqual(expect.arrayContaining(codes));
    const reads = fixtures.sims.pim.requests
      .filter((request) => request.method === "GET" && request.path.startsWith("/api/rest/v1/attributes/color/options"))
      .map((request) => request.path);
    // The list's two pages, no single option.
    expect(reads).toEqual(["/api/rest/v1/attributes/color/options", "/api/rest/v1/attributes/color/options"]);
  });

  test("events the platform lost are repaired by the next scheduled sync", async () => {
    await startWorker();
    fixtures.sims.pim.events.configure({ url: receiver, secret: SECRET, drop: true });
    await pim().upsertAttributeOptions("color", [{ code: "teal", labels: { en_US: "Teal" } }]);
    expect(fixtures.sims.pim.events.stats().dropped).toBe(1);
    expect(optionsOf("color")).not.toContain("teal");
    const scheduled = await fixtures.queues.enqueue("sync.run", { project: PROJECT, trigger: "schedule" });
    await waitForJobState(fixtures.queues, PROJECT, scheduled.jobId, "completed", WAIT_MS);
    expect(optionsOf("color")).toContain("teal");
  });
});
