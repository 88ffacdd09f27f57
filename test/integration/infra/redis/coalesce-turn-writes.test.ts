/**
 * coalesceTurnWrites holds a connection's writes until the end of the event loop's turn, so that
 * the commands of one turn leave in one socket write; the commands still run, in order.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { coalesceTurnWrites } from "../../../../src/infra/redis/coalesce-turn-writes.js";
import { createTestRedis, type TestRedis } from "../../../support/redis.js";

describe("coalesceTurnWrites", () => {
  let test: TestRedis | undefined;

  afterEach(async () => {
    await test?.cleanup();
    test = undefined;
  });

  it("corks the socket once for the turn, uncorks it in the next, and keeps the commands' order", async () => {
    test = await createTestRedis();
    const { redis, prefix } = test;
    const hold = coalesceTurnWrites(redis);
    expect(redis.stream.writableCorked).toBe(0);

    hold();
    hold();
    expect(redis.stream.writableCorked).toBe(1);
    const written = redis.set(`${prefix}:k`, "one");
    const read = redis.get(`${prefix}:k`);
    const overwritten = redis.set(`${prefix}:k`, "two");
    await nextTurn();
    expect(redis.stream.writableCorked).toBe(0);
    expect(await Promise.all([written, read, overwritten])).toEqual(["OK", "one", "OK"]);
    expect(await redis.get(`${prefix}:k`)).toBe("two");

    // A later turn is held again.
    hold();
    expect(redis.stream.writableCorked).toBe(1);
    await nextTurn();
    expect(redis.stream.writableCorked).toBe(0);
  });
});
