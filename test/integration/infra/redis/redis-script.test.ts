/**
 * A script called by its SHA1 still runs when Redis has forgotten it (SCRIPT FLUSH, a restart):
 * it is sent whole once. On a redis-server of the test's own, so the flush touches no one else.
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { redisScript } from "../../../../src/infra/redis/redis-script.js";
import { startOwnRedisServer, type OwnRedisServer } from "../../../../testkit/own-redis-server.js";

describe("redisScript", () => {
  let server: OwnRedisServer | undefined;
  let redis: Redis | undefined;

  afterEach(async () => {
    redis?.disconnect();
    redis = undefined;
    await server?.close();
    server = undefined;
  });

  it("runs by EVALSHA, loads the script when Redis does not know it, and passes errors of the script on", async () => {
    server = await startOwnRedisServer();
    redis = new Redis(server.url);
    const setIfAbsent = redisScript(`if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end redis.call("SET", KEYS[1], ARGV[1]) return 1`);
    expect(await setIfAbsent(redis, ["k"], ["one"])).toBe(1);
    expect(await setIfAbsent(redis, ["k"], ["two"])).toBe(0);
    await redis.script("FLUSH");
    await redis.del("k");
    expect(await setIfAbsent(redis, ["k"], ["three"])).toBe(1);
    expect(await redis.get("k")).toBe("three");
    const broken = redisScript(`return redis.call("NO_SUCH_COMMAND")`);
    await expect(broken(redis, [], [])).rejects.toThrow(/Unknown Redis command|unknown command/i);
  });
});
