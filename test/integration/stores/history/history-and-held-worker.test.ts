import { describe, expect } from "vitest";
import { waitForExit } from "../../../support/process-cli.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startWorkerCommand, type ProcessTestFixtures } from "../../../support/worker-process.js";
import type { HistoryEntryAnswer, HeldPlanAnswer } from "../../../support/history-answers.js";

const PROJECT = 67;
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer", token: "vic-script-token-0123456789" } as const;
const METRICS_TOKEN = "metrics-token-of-the-history-test";

describe("the worker records its writes and keeps held deletions for an admin's review", () => {
  let fixtures: ProcessTestFixtures;
  let configPath = "";
  let baseUrl = "";
  const client = createTriggerClient(() => baseUrl);

  test.beforeEach(async ({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    ({ url: baseUrl, configPath } = await startWorkerCommand(fixtures, {
      projectExtras: { deletion_guard: { max_fraction: 0.3, min_count: 2 }, allowed_options_for_pim_attribute_addition: ["color"] },
      server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN, admin: { users: [ADMIN, VIEWER] } },
    }));
  });

  const as = (user: { token: string }, path: string, method = "GET") =>
    client.call(path, { token: user.token, method, ...(method === "POST" ? { body: {} } : {}) });
  async function syncAsAdmin(): Promise<{ ref: string; result: { outcome: string } }> {
    const answer = await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, "POST");
    expect(answer.status).toBe(202);
    const ref = (answer.json as { job_id: string }).job_id;
    const job = await waitForJobState(fixtures.queues, PROJECT, ref.split("/")[1] ?? "", "completed", 60_000);
    return { ref, result: job.returnvalue as { outcome: string } };
  }
  const historyOf = async (user: { token: string }, query: string) => {
    const answer = await as(user, `/admin/api/projects/${PROJECT}/history?${query}`);
    expect(answer.status).toBe(200);
    return answer.json as { entries: HistoryEntryAnswer[]; next_cursor: string | null };
  };
  const heldList = async () => ((await as(VIEWER, `/admin/api/projects/${PROJECT}/held`)).json as { held: HeldPlanAnswer[] }).held;
  const color = () => fixtures.sims.pim.state.attribute_options["color"] ?? [];
  const dropFromPim = (...codes: string[]) => color().splice(0, color().length, ...color().filter((o) => !codes.includes(o.code)));
  const inService = () =>
    (fixtures.sims.service.collections().find((c) => c.name === "color" && c.project === PROJECT)?.options ?? []).map((o) => o.name).sort();
  const heldMetric = async () => {
    const text = (await client.call("/metrics", { token: METRICS_TOKEN })).text;
    return Number(/^pim_sync_held_deletions\{project="67"\} (\d+)$/m.exec(text)?.[1] ?? "NaN");
  };
  /** The age gauge of the oldest plan awaiting review, and the most it can be given when the plan was held. */
  const heldAgeMetric = async (heldAt: string) => {
    const text = (await client.call("/metrics", { token: METRICS_TOKEN })).text;
    const most = (Date.now() - Date.parse(heldAt)) / 1000;
    const value = /^pim_sync_held_deletions_age_seconds\{project="67"\} (\S+)$/m.exec(text)?.[1];
    return { value: value === undefined ? undefined : Number(value), most };
  };

  test("a job's writes appear in the history with its ref and trigger, paged; add-options are `added`; a viewer reads held plans but cannot approve; an admin's approval deletes exactly what was approved", async () => {
    const first = await syncAsAdmin();
    const page = await historyOf(VIEWER, "collection=color&limit=2");
    expect(page.entries).toHaveLength(2);
    expect(
      page.entries.every((e) => e.job === first.ref && e.trigger === "admin" && e.requested_by === ADMIN.name && e.kind === "replaced"),
    ).toBe(true);
    expect(page.next_cursor).not.toBeNull();
    const rest = await historyOf(VIEWER, `collection=color&limit=10&cursor=${encodeURIComponent(page.next_cursor ?? "")}`);
    expect([...page.entries, ...rest.entries].map((e) => e.option).sort()).toEqual(["black", "blue", "green", "red", "white"]);
    expect(rest.next_cursor).toBeNull();
    expect((await as(VIEWER, `/admin/api/projects/${PROJECT}/history?since=yesterday`)).status).toBe(400);

    const added = await fixtures.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { "en-US": "Teal" } }],
      requested_by: "shop",
    });
    await waitForJobState(fixtures.queues, PROJECT, added.jobId, "completed", 60_000);
    expect((await historyOf(VIEWER, "option=teal")).entries).toEqual([
      expect.objectContaining({ kind: "added", collection: "color", job: `${PROJECT}/${added.jobId}`, requested_by: "shop" }),
    ]);
    // Codes are case-insensitive, in the history's filters too.
    expect((await historyOf(VIEWER, "option=TEAL&collection=Color")).entries).toEqual((await historyOf(VIEWER, "option=teal")).entries);

    dropFromPim("black", "blue");
    const holding = await syncAsAdmin();
    expect(holding.result.outcome).toBe("held_back");
    const [plan] = await heldList();
    expect(plan).toMatchObject({ approved: null, collections: [{ collection: "color", options: ["black", "blue"] }] });
    expect(await heldMetric()).toBe(2);
    const age = await heldAgeMetric(plan?.held_at ?? "");
    expect(age.value).toBeGreaterThanOrEqual(0);
    expect(age.value).toBeLessThanOrEqual(age.most);

    const refused = await as(VIEWER, `/admin/api/projects/${PROJECT}/held/${plan?.id ?? "?"}/approve`, "POST");
    expect(refused.status).toBe(403);
    expect((await heldList())[0]?.approved).toBeNull();
    expect((await as(ADMIN, `/admin/api/projects/${PROJECT}/held/nope/approve`, "POST")).status).toBe(404);
    const approved = await as(ADMIN, `/admin/api/projects/${PROJECT}/held/${plan?.id ?? "?"}/approve`, "POST");
    expect(approved).toMatchObject({ status: 200, json: { approved: { id: plan?.id, approved: { by: ADMIN.name } } } });
    expect(await heldMetric()).toBe(0);
    // An approved plan waits for the next run, not for a person: no age.
    expect((await heldAgeMetric(plan?.held_at ?? "")).value).toBeUndefined();

    dropFromPim("green");
    const applying = await syncAsAdmin();
    expect(inService()).toEqual(["green", "red", "teal", "white"]);
    expect((await heldList()).map((h) => h.collections)).toEqual([[expect.objectContaining({ collection: "color", options: ["green"] })]]);
    const black = (await historyOf(ADMIN, "option=black")).entries[0];
    expect(black).toMatchObject({
      kind: "deleted",
      job: applying.ref,
      reason: expect.stringContaining(`approved in held plan ${plan?.id ?? "?"}`),
    });
  });

  test("an admin's dismissal keeps the options in the service, records each as kept under the admin's name, and a later sync decides again; the CLI dismisses too", async () => {
    await syncAsAdmin();
    dropFromPim("black", "blue");
    expect((await syncAsAdmin()).result.outcome).toBe("held_back");
    const [plan] = await heldList();
    const path = `/admin/api/projects/${PROJECT}/held/${plan?.id ?? "?"}/dismiss`;

    expect((await as(VIEWER, path, "POST")).status).toBe(403);
    expect(await heldList()).toHaveLength(1);
    expect((await as(ADMIN, `/admin/api/projects/${PROJECT}/held/nope/dismiss`, "POST")).status).toBe(404);
    expect((await as(ADMIN, path, "GET")).status).toBe(405);
    const dismissed = await as(ADMIN, path, "POST");
    expect(dismissed).toMatchObject({ status: 200, json: { dismissed: { id: plan?.id, approved: null } } });
    expect(await heldList()).toEqual([]);
    expect(await heldMetric()).toBe(0);
    expect(inService()).toEqual(["black", "blue", "green", "red", "white"]);
    for (const option of ["black", "blue"])
      expect((await historyOf(ADMIN, `option=${option}`)).entries[0]).toMatchObject({
        kind: "kept",
        trigger: "admin",
        requested_by: ADMIN.name,
        job: `dismiss/${plan?.id ?? "?"}`,
        reason: expect.stringContaining(`held deletion dismissed by ${ADMIN.name}`),
      });

    // Not "never": the next sync still finds them missing from the PIM and holds them again.
    expect((await syncAsAdmin()).result.outcome).toBe("held_back");
    const [again] = await heldList();
    expect(again).toMatchObject({ approved: null, collections: [{ collection: "color", options: ["black", "blue"] }] });
    expect(again?.id).not.toBe(plan?.id);
    const dismissing = fixtures.cli.spawn([
      "held",
      "dismiss",
      "--config",
      configPath,
      "--project",
      String(PROJECT),
      "--id",
      again?.id ?? "?",
    ]);
    expect(await waitForExit(dismissing, 30_000)).toEqual({ code: 0, signal: null });
    expect(dismissing.stdout()).toContain("Dismissed: these options stay in the service");
    expect(await heldList()).toEqual([]);
    expect((await historyOf(ADMIN, "option=black")).entries[0]).toMatchObject({
      kind: "kept",
      trigger: "cli",
      job: `dismiss/${again?.id ?? "?"}`,
    });
    expect(inService()).toEqual(["black", "blue", "green", "red", "white"]);
  });
});
