import { describe, expect } from "vitest";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { waitForExit } from "../../../support/process-cli.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startWorkerCommand, type ProcessTestFixtures } from "../../../support/worker-process.js";
import { everyKeyOf } from "../../../support/every-key-of.js";

const PROJECT = 67;
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-results-token-0123456789" } as const;
const CAMEL_KEY = /^[a-z][a-z0-9]*[A-Z]/;

describe("job results: stored snake_case, shown snake_case (an earlier version's camelCase too), a held-back sync shown as such", () => {
  let fixtures: ProcessTestFixtures;
  let configPath: string;
  let baseUrl = "";
  const client = createTriggerClient(() => baseUrl);

  test.beforeEach(async ({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    ({ url: baseUrl, configPath } = await startWorkerCommand(fixtures, {
      projectExtras: { deletion_guard: { max_fraction: 0.3, min_count: 2 } },
      server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } },
    }));
  });

  const asAdmin = (path: string, method = "GET") =>
    client.call(path, { token: ADMIN.token, method, ...(method === "POST" ? { body: {} } : {}) });
  async function sync(): Promise<string> {
    const answer = await asAdmin(`/admin/api/projects/${PROJECT}/sync`, "POST");
    const ref = (answer.json as { job_id: string }).job_id;
    await waitForJobState(fixtures.queues, PROJECT, ref.split("/")[1] ?? "", "completed", 60_000);
    return ref;
  }
  async function run(...args: string[]): Promise<string> {
    const proc = fixtures.cli.spawn([...args, "--config", configPath]);
    expect(await waitForExit(proc, 30_000)).toEqual({ code: 0, signal: null });
    return proc.stdout();
  }

  test("the CLI, the admin API and the dashboard show results snake_case and a held-back sync as held_back", async () => {
    const first = await sync();
    const color = fixtures.sims.pim.state.attribute_options["color"] ?? [];
    color.splice(0, color.length, ...color.filter((option) => !["black", "blue"].includes(option.code)));
    const held = await sync();
    const heldId = held.split("/")[1] ?? "";

    // Stored: snake_case, the dashboard's raw view included.
    const stored = (await fixtures.queues.queueFor(PROJECT).getJob(heldId))?.returnvalue as unknown;
    expect(stored).toMatchObject({ outcome: "held_back", held_back: [expect.objectContaining({ collection: "color", names: 2 })] });
    expect(everyKeyOf(stored).filter((key) => CAMEL_KEY.test(key))).toEqual([]);

    // A result an earlier version stored camelCase, in place of the first sync's.
    const firstId = first.split("/")[1] ?? "";
    const legacy = { outcome: "held_back", written: 0, heldBack: [{ collection: "season", names: 3, reason: "old" }], durationMs: 12 };
    await fixtures.redis.redis.hset(`${fixtures.redis.prefix}:${queueNameOf(PROJECT)}:${firstId}`, "returnvalue", JSON.stringify(legacy));

    // jobs list: the state column says held_back; --json has the outcome.
    const table = await run("jobs", "list");
    for (const ref of [held, first]) expect(table).toMatch(new RegExp(`^${ref}\\s+sync\\.run\\s+completed \\(held_back\\)\\s`, "m"));
    const listed = JSON.parse(await run("jobs", "list", "--json")) as { ref: string; outcome: string | null }[];
    expect(
      listed
        .filter((job) => job.outcome === "held_back")
        .map((job) => job.ref)
        .sort(),
    ).toEqual([first, held].sort());

    // jobs show: the result snake_case, the earlier camelCase one converted on read.
    const shownLegacy = await run("jobs", "show", first);
    expect(shownLegacy).toContain(
      'result: {"outcome":"held_back","written":0,"held_back":[{"collection":"season","names":3,"reason":"old"}],"duration_ms":12}',
    );
    const shownHeld = await run("jobs", "show", held);
    expect(shownHeld).toMatch(/^result: \{"outcome":"held_back".*"held_back":\[\{"collection":"color","names":2/m);
    expect(shownHeld).not.toMatch(/heldBack|durationMs/);

    // The admin API.
    const list = (await asAdmin("/admin/api/jobs")).json as { jobs: { ref: string; outcome: string | null }[] };
    expect(
      list.jobs
        .filter((job) => job.outcome === "held_back")
        .map((job) => job.ref)
        .sort(),
    ).toEqual([first, held].sort());
    const detail = await asAdmin(`/admin/api/jobs/${first}`);
    expect(detail.json).toMatchObject({ outcome: "held_back", result: { held_back: [{ collection: "season" }], duration_ms: 12 } });
    expect(everyKeyOf(detail.json).filter((key) => CAMEL_KEY.test(key))).toEqual([]);

    // The dashboard (bull-board's own API, what its pages show): the name says held_back.
    const board = await asAdmin(
      `/admin/api/queues?activeQueue=${encodeURIComponent(queueNameOf(PROJECT))}&status=completed&page=1&jobsPerPage=10`,
    );
    expect(board.status).toBe(200);
    const boardQueue = (
      board.json as { queues: { name: string; jobs: { id: string; name: string; returnValue: unknown }[] }[] }
    ).queues.find((queue) => queue.name === queueNameOf(PROJECT));
    const boardJobs = new Map(boardQueue?.jobs.map((job) => [job.id, job]));
    expect(boardJobs.get(heldId)?.name).toBe("sync.run (held_back)");
    expect(boardJobs.get(firstId)).toMatchObject({
      name: "sync.run (held_back)",
      returnValue: { held_back: [{ collection: "season" }], duration_ms: 12 },
    });
  });

  test("history and held no longer take --json-keys (they never answered camelCase); jobs --json-keys camel warns of its removal in 0.3.0", async () => {
    const ref = await sync();
    for (const command of [
      ["history", "--project", "67", "--json"],
      ["held", "--project", "67", "--json"],
    ]) {
      const proc = fixtures.cli.spawn([...command, "--json-keys", "camel", "--config", configPath]);
      expect(await waitForExit(proc, 30_000)).toEqual({ code: 2, signal: null });
      expect(proc.stderr()).toContain("unknown option '--json-keys'");
    }
    const camel = fixtures.cli.spawn(["jobs", "show", ref, "--json", "--json-keys", "camel", "--config", configPath]);
    expect(await waitForExit(camel, 30_000)).toEqual({ code: 0, signal: null });
    expect(camel.stderr()).toContain("deprecated: --json-keys camel is removed in 0.3.0");
    // The earlier shape: the result camelCase, as earlier versions stored it.
    expect(JSON.parse(camel.stdout())).toMatchObject({
      attemptsMade: 1,
      result: { outcome: "done", heldBack: [], durationMs: expect.any(Number) as unknown },
    });
  });
});
