/**
 * `redis.password` reaches AUTH as written: a password holding every character a Redis URL
 * breaks on opens pim-sync's connection to a redis-server of the test's own that requires it.
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { closeRedis } from "../../../../src/infra/redis/close-redis.js";
import { connectCommandRedis } from "../../../../src/infra/redis/connect-command-redis.js";
import type { RedisClient } from "../../../../src/infra/redis/redis-client.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { startOwnRedisServer, type OwnRedisServer } from "../../../../testkit/own-redis-server.js";

const PASSWORD = "p@ss/w#rd?%40:x";
const PROJECT = {
  id: 1,
  pim: { url: "http://pim.example", client_id: "c", secret: "s", username: "u", password: "p" },
  service: { url: "http://service.example", token: "t" },
};

describe("a Redis password with @ / # ? % given as redis.password", () => {
  let server: OwnRedisServer | undefined;
  let redis: RedisClient | undefined;

  afterEach(async () => {
    if (redis) await closeRedis(redis);
    redis = undefined;
    await server?.close();
    server = undefined;
  });

  it("authenticates the connection pim-sync opens (the server refuses one without it)", async () => {
    server = await startOwnRedisServer({ args: ["--requirepass", PASSWORD] });
    const anonymous = new Redis(server.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    anonymous.on("error", () => undefined);
    await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
    anonymous.disconnect();

    const settings = parseSettings(
      JSON.stringify({ redis: { url: server.url, password: "${REDIS_PASSWORD}", prefix: "redis-password-test" }, projects: [PROJECT] }),
      "test",
      { REDIS_PASSWORD: PASSWORD },
    );
    if (!settings.redis) throw new Error("the config names a Redis");
    redis = await connectCommandRedis(settings.redis);

    expect(await redis.set("redis-password-test:k", "v")).toBe("OK");
    expect(await redis.get("redis-password-test:k")).toBe("v");
  });
});
