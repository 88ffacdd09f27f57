import { describe, expect } from "vitest";
import { collectionsOf, waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startWorkerCommand, type ProcessTestFixtures } from "../../../support/worker-process.js";

const PROJECT = 67;
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer", token: "vic-script-token-0123456789" } as const;
const WAIT_MS = 60_000;

interface Entry {
  collection: string;
  option: string;
  trigger: string;
  requested_by?: string;
  job: string;
}
interface Planned {
  collection: string;
  action: string;
  upserts: string[];
  deletes: string[];
}

describe("an admin's resync of one collection, through the targeted path, after a dry run", () => {
  let fixtures: ProcessTestFixtures;
  let baseUrl = "";
  const client = createTriggerClient(() => baseUrl);

  test.beforeEach(async ({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    ({ url: baseUrl } = await startWorkerCommand(fixtures, { server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN, VIEWER] } } }));
  });

  const as = (user: { token: string }, path: string, body?: unknown) =>
    client.call(path, { token: user.token, ...(body === undefined ? {} : { method: "POST", body }) });
  async function finished(answer: { status: number; json: unknown }): Promise<{ ref: string; result: Record<string, unknown> }> {
    expect(answer.status).toBe(202);
    const ref = (answer.json as { job_id: string }).job_id;
    const job = await waitForJobState(fixtures.queues, PROJECT, ref.split("/")[1] ?? "", "completed", WAIT_MS);
    return { ref, result: job.returnvalue as Record<string, unknown> };
  }
  const optionsOf = (collection: string) =>
    (collectionsOf(fixtures.sims.service, PROJECT)[collection] ?? []).map((option) => option.name).sort();
  const history = async (): Promise<Entry[]> =>
    ((await as(VIEWER, `/admin/api/projects/${PROJECT}/history?limit=1000`)).json as { entries: Entry[] }).entries;

  test("the dry run shows what it would write and writes nothing; the resync writes only that collection, under the admin's name; a viewer gets 403", async () => {
    await finished(await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, {}));
    const before = { fr: optionsOf("material-fr_FR"), color: optionsOf("color"), history: (await history()).length };
    // Changes the PIM makes while its events are lost: two collections of one attribute, and another attribute.
    fixtures.sims.pim.state.attribute_options["material"]?.push({
      code: "linen",
      sort_order: 99,
      labels: { en_US: "Linen", fr_FR: "Lin" },
    });
    fixtures.sims.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 99, labels: { en_US: "Teal" } });

    const viewer = await as(VIEWER, `/admin/api/projects/${PROJECT}/resync`, { collection: "material-en_US" });
    expect(viewer.status).toBe(403);
    const both = await as(ADMIN, `/admin/api/projects/${PROJECT}/resync`, { collection: "material-en_US", attribute: "material" });
    expect(both.status).toBe(400);

    const dry = await finished(await as(ADMIN, `/admin/api/projects/${PROJECT}/resync`, { collection: "material-en_US", dry_run: true }));
    expect(dry.result.dry_run).toBe(true);
    expect(dry.result.plan).toEqual([
      { collection: "material-en_US", action: "update", upserts: ["linen"], deletes: [], held_back: [], more: 0 },
    ] satisfies (Planned & { held_back: string[]; more: number })[]);
    expect(optionsOf("material-en_US")).not.toContain("linen");
    expect((await history()).length).toBe(before.history);

    const done = await finished(await as(ADMIN, `/admin/api/projects/${PROJECT}/resync`, { collection: "material-en_US" }));
    expect(done.result.written).toBe(1);
    expect(optionsOf("material-en_US")).toContain("linen");
    // Only that collection: not its sibling of the same attribute, nor another attribute's.
    expect(optionsOf("material-fr_FR")).toEqual(before.fr);
    expect(optionsOf("color")).toEqual(before.color);
    const written = (await history()).filter((entry) => entry.job === done.ref);
    expect(written.map((entry) => [entry.collection, entry.option, entry.trigger, entry.requested_by])).toEqual([
      ["material-en_US", "linen", "admin", ADMIN.name],
    ]);
    // The viewer sees no resync button on the console; the admin does.
    const page = async (user: { token: string }) => (await as(user, "/admin/console")).text;
    expect(await page(VIEWER)).not.toContain("data-resync");
    expect(await page(ADMIN)).toContain(`data-resync="${PROJECT}"`);
  });
});
