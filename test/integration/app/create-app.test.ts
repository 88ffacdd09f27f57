/**
 * The composition root: what the app acquired is released in the reverse order of acquisition,
 * once, a Redis given by the caller stays open, and a release that fails skips none of the
 * others. Observed on the real Redis: a project lock still in Redis after `stop()` was released
 * after the connection it needed had closed.
 */
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app/create-app.js";
import { ReleaseFailed } from "../../../src/app/release-stack.js";
import type { RedisClient } from "../../../src/infra/redis/redis-client.js";
import { activationSchema } from "../../../src/settings/activation-settings-schema.js";
import { settingsSchema, type Settings } from "../../../src/settings/settings-schema.js";
import { createTestRedis, TEST_REDIS_URL, type TestRedis } from "../../support/redis.js";
import { silentLogger } from "../../support/silent-logger.js";

const PROJECT = 1;

function settingsOf(prefix: string): Settings {
  const parsed = settingsSchema.parse({
    redis: { url: TEST_REDIS_URL, prefix: "stand-in" },
    // Never called: nothing here reaches an upstream.
    projects: [
      {
        id: PROJECT,
        pim: { url: "http://127.0.0.1:9", client_id: "c", secret: "s", username: "u", password: "p" },
        service: { url: "http://127.0.0.1:9", token: "t" },
      },
    ],
  });
  // The test's prefix has a ':' the schema refuses (Redis does not mind): put in after parsing.
  return { ...parsed, redis: { url: TEST_REDIS_URL, prefix, connect_timeout_ms: 5_000 } };
}

/** A logger whose records the test reads back. */
function recordingLogger(onRecord: (record: Record<string, unknown>) => void = () => undefined): {
  readonly logger: Logger;
  readonly records: Record<string, unknown>[];
} {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        const record = JSON.parse(line) as Record<string, unknown>;
        records.push(record);
        onRecord(record);
      }
      done();
    },
  });
  return { logger: pino({ level: "info" }, sink), records };
}

describe("createApp", () => {
  let t: TestRedis;
  beforeEach(async () => {
    t = await createTestRedis();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("closes the Redis it connected last, after the project lock that needed it was released", async () => {
    const app = createApp(settingsOf(t.prefix), { logger: silentLogger() });
    const redis = await app.redis();
    await app.lockProject(PROJECT, "create-app test");
    await app.project(PROJECT);
    expect(await t.keys()).toHaveLength(1); // the lock

    await app.stop();

    await expect.poll(() => redis?.status).toBe("end"); // QUIT answered, then the socket closes
    expect(await t.keys()).toEqual([]);
  });

  it("uses a Redis given by the caller and leaves it open", async () => {
    const app = createApp(settingsOf(t.prefix), { logger: silentLogger(), redis: t.redis });
    expect(await app.redis()).toBe(t.redis);
    await app.lockProject(PROJECT, "create-app test");

    await app.stop();

    expect(t.redis.status).toBe("ready");
    expect(await t.keys()).toEqual([]);
  });

  it("makes one Event Platform session a project and closes its pool on stop", async () => {
    const app = createApp(settingsOf(t.prefix), { logger: silentLogger() });
    const session = await app.eventPlatform(PROJECT);
    expect(await app.eventPlatform(PROJECT)).toBe(session);
    await expect(app.eventPlatform(99)).rejects.toThrow(/project 99 is not configured/);

    await app.stop();

    // Its pool is closed: a login through it is refused before anything is sent.
    await expect(session.pimToken()).rejects.toThrow(/closed|destroyed/i);
  });

  it("stops twice without harm, and refuses what is asked of it once stopped", async () => {
    const app = createApp(settingsOf(t.prefix), { logger: silentLogger() });
    const redis = await app.redis();
    await app.lockProject(PROJECT, "create-app test");

    await Promise.all([app.stop(), app.stop()]);
    await app.stop();

    await expect.poll(() => redis?.status).toBe("end"); // QUIT answered, then the socket closes
    expect(await t.keys()).toEqual([]);
    await expect(app.activation()).rejects.toThrow();
  });

  it("releases the others when one release fails, then reports the failure", async () => {
    const { logger, records } = recordingLogger();
    const app = createApp(settingsOf(t.prefix), { logger });
    const redis = await app.redis();
    // Acquired last, so released first: its release fails on a connection killed under it.
    await app.lockProject(PROJECT, "create-app test");
    redis?.disconnect();

    const failure = await app.stop().then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(ReleaseFailed);
    expect((failure as Error).message).toContain(`project ${PROJECT}'s lock`);
    expect(
      records.filter((record) => record.msg === "could not release a resource; releasing the others").map((record) => record.resource),
    ).toEqual([`project ${PROJECT}'s lock`]);
    // That the releases after a failing one still run is shown in test/unit/app/release-stack.test.ts.
  });

  it("stops the worker it started before closing the Redis the worker used", async () => {
    // Read when the worker logs its stop: the connection the app opened for it.
    const opened: { redis?: RedisClient | undefined } = {};
    let redisWhenWorkerStopped: string | undefined;
    const { logger, records } = recordingLogger((record) => {
      if (record.msg === "worker stopped") redisWhenWorkerStopped = opened.redis?.status;
    });
    const app = createApp(settingsOf(t.prefix), { logger, role: "worker" });
    await app.start();
    const running = await app.worker().started;
    opened.redis = await app.redis();

    await app.stop();

    expect(running.stoppedProjects()).toEqual([PROJECT]);
    expect(records.find((record) => record.msg === "worker stopped")).toMatchObject({ forced: false });
    // The worker had stopped while its connection was still open; the connection closed after.
    expect(redisWhenWorkerStopped).toBe("ready");
    await expect.poll(() => opened.redis?.status).toBe("end"); // QUIT answered, then the socket closes
  });

  it("runs the worker on the app's parts: its queues, Activation queue and runtime are the ones the app hands out, each made once", async () => {
    const base = settingsOf(t.prefix);
    const settings: Settings = {
      ...base,
      // Never called: no pull is scheduled and no job is queued.
      activation: activationSchema.parse({ url: "http://127.0.0.1:9", pim_connection_id: "c", access_token: "t" }),
    };
    const app = createApp(settings, { logger: silentLogger(), role: "worker" });
    try {
      await app.start();
      const running = await app.worker().started;
      expect(running.queues).toBe(await app.jobQueues());
      expect(running.activation?.queue).toBe(await app.activationQueue());
      expect(running.activation?.runtime).toBe(await app.activation());
      expect(running.connection).toBe(await app.redis());
    } finally {
      await app.stop();
    }
  });

  it("stops the worker through its one stack: a release that fails is reported, and the listener and the Redis connection are still released", async () => {
    const { logger, records } = recordingLogger();
    // A job that ignores its abort: the worker's jobs cannot be released, whatever the deadline.
    let handlerEntered: () => void = () => undefined;
    const entered = new Promise<void>((resolve) => (handlerEntered = resolve));
    let letHandlerEnd: () => void = () => undefined;
    const handlerEnds = new Promise<void>((resolve) => (letHandlerEnd = resolve));
    const stuck = async (): Promise<null> => {
      handlerEntered();
      await handlerEnds;
      return null;
    };
    const base = settingsOf(t.prefix);
    const settings: Settings = {
      ...base,
      server: settingsSchema.shape.server.parse({ host: "127.0.0.1", port: 0 }),
      worker: { ...base.worker, shutdown_timeout_ms: 50 },
    };
    const app = createApp(settings, {
      logger,
      role: "worker",
      worker: { handlers: { "sync.run": stuck, "sync.events": stuck, "options.add": stuck } },
    });
    try {
      await app.start();
      const running = await app.worker().started;
      const serverUrl = app.worker().serverUrl ?? "";
      const redis = await app.redis();
      expect((await fetch(`${serverUrl}/healthz`)).status).toBe(200);
      await running.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
      await entered;

      const failure = await app.stop().then(
        () => null,
        (error: unknown) => error,
      );

      expect(failure).toBeInstanceOf(ReleaseFailed);
      expect((failure as Error).message).toContain("the worker's jobs");
      expect(
        records.filter((record) => record.msg === "could not release a resource; releasing the others").map((record) => record.resource),
      ).toEqual(["the worker's jobs"]);
      // Released before the failing part: the listener refuses connections.
      await expect(fetch(`${serverUrl}/healthz`)).rejects.toThrow();
      // Released after it, last of all: the Redis connection the app opened for the worker.
      await expect.poll(() => redis?.status).toBe("end"); // QUIT answered, then the socket closes
    } finally {
      letHandlerEnd();
      await app.stop().catch(() => undefined);
    }
  });
});
