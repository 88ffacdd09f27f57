import { createServer } from "node:http";
import { once } from "node:events";
import { describe, expect } from "vitest";
import { leaksSince, resourceCounts, test } from "../../support/fixtures.js";
import { waitFor } from "../../support/worker-wait.js";

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
    const proc = cli.spawn(["sim", "--pim-port", "0", "--service-port", "0", "--activation-port", "0"]);
    await waitFor(() => proc.stdout().includes("Press Ctrl-C to stop."), 30_000, "the simulators to be up");
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
});
