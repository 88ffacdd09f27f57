import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { once } from "node:events";
import { join } from "node:path";
import { Redis } from "ioredis";
import { describe, expect } from "vitest";
import type { JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { leaksSince, resourceCounts, test } from "../../support/fixtures.js";
import { SIM_FREE_PORTS } from "../../support/process-cli.js";
import { answersPing } from "../../../testkit/own-redis-server.js";
import { makeTempDir, removeTempDir } from "../../support/temp-dirs.js";
import { waitFor } from "../../support/wait-for.js";

describe("the test fixtures", () => {
  test("the leak check sees a server left listening, and nothing once it is closed", async () => {
    const before = resourceCounts();
    const server = createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    expect(await leaksSince(before, 0)).toEqual(["1 × TCPServerWrap"]);
    server.close();
    await once(server, "close");
    expect(await leaksSince(before)).toEqual([]);
  });

  test("the leak check sees a pim-sync process still running", async ({ cli }) => {
    const before = resourceCounts();
    const proc = cli.spawn(["sim", ...SIM_FREE_PORTS]);
    await waitFor(() => proc.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 30_000, what: "the simulators to be up" });
    expect((await leaksSince(before, 0)).join(", ")).toMatch(/pim-sync process still running/);
    proc.signal("SIGTERM");
    await proc.exited;
    expect(await leaksSince(before)).toEqual([]);
  });

  test("redis hands out a prefix of its own, and sims answer on ports bound as 0", async ({ redis, sims }) => {
    await redis.redis.set(`${redis.prefix}:probe`, "1");
    expect(await redis.keys()).toEqual([`${redis.prefix}:probe`]);
    const answer = await fetch(`${sims.pim.url}/api/rest/v1/channels`);
    expect(answer.status).toBe(401);
  });

  test("the leak check sees a temp folder still on disk, and nothing once it is removed", async () => {
    const before = resourceCounts();
    const dir = await makeTempDir();
    expect(await leaksSince(before, 0)).toEqual(["1 × temp folder still on disk"]);
    await removeTempDir(dir);
    expect(await leaksSince(before)).toEqual([]);
  });

  test("the leak check sees an in-process worker kept and not yet stopped", async ({ workers }) => {
    const before = resourceCounts();
    workers.keep({ stop: async () => ({ forced: false }) });
    expect(await leaksSince(before, 0)).toEqual(["1 × in-process worker still running"]);
  });
});

/**
 * What a fixture releases shows only once its test is over: the first test of each pair keeps a
 * handle, the second (run after it: the tests of a file run in order) looks at it.
 */
describe("the test fixtures release what they set up, after the test", () => {
  const kept: {
    dir?: string;
    stopped?: boolean;
    pimUrl?: string;
    ownRedisUrl?: string;
    ownClient?: Redis;
    queues?: JobQueues;
    closed?: string[];
  } = {};

  test("tempDir, workers, harness, ownRedis (a server and a client), queues and closeAfter set up", async ({
    tempDir,
    workers,
    harness,
    ownRedis,
    queues,
    closeAfter,
  }) => {
    kept.closed = [];
    for (const name of ["first", "second"]) closeAfter({ close: async () => kept.closed?.push(name) });
    // A server the test closed itself: closing it again after the test is no failure.
    const closedByTest = createServer();
    closedByTest.listen(0, "127.0.0.1");
    await once(closedByTest, "listening");
    closeAfter({ close: () => new Promise<void>((resolve, reject) => closedByTest.close((error) => (error ? reject(error) : resolve()))) });
    closedByTest.close();
    await once(closedByTest, "close");
    kept.dir = tempDir;
    await writeFile(join(tempDir, "file.txt"), "content");
    kept.stopped = false;
    workers.keep({
      stop: async () => {
        kept.stopped = true;
        return { forced: false };
      },
    });
    const h = await harness.start();
    kept.pimUrl = h.pim.url;
    expect((await fetch(`${h.pim.url}/api/rest/v1/channels`)).status).toBe(401);
    const server = await ownRedis.start();
    kept.ownRedisUrl = server.url;
    expect(await answersPing(server.url)).toBe(true);
    kept.ownClient = ownRedis.keep(new Redis(server.url));
    expect(await kept.ownClient.ping()).toBe("PONG");
    kept.queues = queues;
    expect(queues.queueFor(67).closing).toBeUndefined();
  });

  test("... and released after it: the folder removed, the worker stopped, the servers gone, the client disconnected, the queues closed, what closeAfter kept closed newest first", async () => {
    expect(kept.closed).toEqual(["second", "first"]);
    expect(kept.dir && existsSync(kept.dir)).toBe(false);
    expect(kept.stopped).toBe(true);
    await expect(fetch(`${kept.pimUrl ?? "http://unset"}/api/rest/v1/channels`)).rejects.toThrow();
    expect(await answersPing(kept.ownRedisUrl ?? "redis://unset")).toBe(false);
    expect(kept.ownClient?.status).toBe("end");
    expect(kept.queues?.queueFor(67).closing).toBeDefined();
  });
});
