import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import { createRedisHistoryStore } from "../../../src/stores/history/redis-history-store.js";
import { assertCliBuilt, waitForExit } from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { TEST_REDIS_URL } from "../../support/redis.js";
import { startRedisCommandTripwire } from "../../support/redis-command-tripwire.js";
import { test } from "../../support/fixtures.js";

const PROJECT = 67;
const isAccepted = (r: { method: string; path: string; status: number }): boolean =>
  r.method === "PATCH" && r.path.endsWith("/add-options/") && r.status === 200;

describe("pim-sync worker as a process: an add-options write killed before the state took it", () => {
  beforeAll(() => assertCliBuilt());

  test("is in the history already, and the replay leaves every added option in it", async ({
    sims,
    redis,
    queues,
    tempDir,
    cli,
    closeAfter,
  }) => {
    // Held back: the first write of a state key of the project (an HSET, alone or in a MULTI).
    const stateKey = `${redis.prefix}:state:`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const real = new URL(TEST_REDIS_URL);
    const wire = closeAfter(
      await startRedisCommandTripwire(
        { host: real.hostname, port: Number(real.port || 6379) },
        new RegExp(`\\r\\n(?:hset|hdel)\\r\\n\\$\\d+\\r\\n${stateKey}`, "i"),
      ),
    );
    const config = testConfigObject({
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      logLevel: "info",
      projectExtras: { allowed_options_for_pim_attribute_addition: ["material"] },
    });
    const configPath = join(tempDir, "config.json");
    await writeFile(configPath, JSON.stringify({ ...config, redis: { url: wire.url, prefix: redis.prefix } }));
    const { jobId } = await queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "silk" }] });

    const workerA = await cli.startWorker(configPath);
    await wire.tripped;
    workerA.signal("SIGKILL");
    expect(await waitForExit(workerA, 10_000)).toEqual({ code: null, signal: "SIGKILL" });

    // The service accepted the write; the state never took it; the history has it.
    expect(sims.service.requests.filter(isAccepted).length).toBeGreaterThanOrEqual(1);
    const history = createRedisHistoryStore(redis.redis, redis.prefix, { retentionMs: 86_400_000 });
    const recorded = async (): Promise<{ collection: string; option: string }[]> => {
      const entries: { collection: string; option: string }[] = [];
      for await (const record of history.newestFirst(PROJECT, { sinceMs: 0 }))
        for (const entry of record.entries) entries.push({ collection: entry.collection, option: entry.option });
      return entries;
    };
    const acceptedFirst = sims.service.requests.find(isAccepted);
    const firstCollection = sims.service.collections().find((c) => acceptedFirst?.path.includes(`/${c.id}/`));
    expect(firstCollection).toBeDefined();
    expect(await recorded()).toContainEqual({ collection: firstCollection?.name, option: "silk" });

    wire.disarm();
    const workerB = await cli.startWorker(configPath);
    const done = await waitForJobState(queues, PROJECT, jobId, "completed", 60_000);
    expect((done.returnvalue as { status: string }).status).toBe("added");
    // Every collection the option went to has it in the history (at least once: a replay may record it again).
    const materials = sims.service.collections().filter((c) => c.project === PROJECT && c.name.startsWith("material"));
    expect(materials.length).toBeGreaterThan(0);
    const after = await recorded();
    for (const c of materials) expect(after, c.name).toContainEqual({ collection: c.name, option: "silk" });
    workerB.signal("SIGTERM");
    expect(await waitForExit(workerB, 25_000)).toEqual({ code: 0, signal: null });
  });
});
