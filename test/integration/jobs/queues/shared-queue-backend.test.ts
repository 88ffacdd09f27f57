/**
 * The project queues share one BullMQ connection (src/jobs/queues/shared-queue-backend.ts): the
 * server's version is asked once however many queues there are, where BullMQ's own connection per
 * queue asked it once each (2,000 INFOs at the start of a 1,000-project worker). The client is the
 * test Redis' real one; only its `info` calls are counted.
 */
import { describe, expect, vi } from "vitest";
import { Queue } from "bullmq";
import { createJobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { test } from "../../../support/fixtures.js";

const PROJECTS = Array.from({ length: 50 }, (_, index) => 2000 + index);

describe("project queues: one BullMQ connection for all", () => {
  test("50 queues ask the server's version once, and the worker's start writes each queue's meta in one write", async ({ redis }) => {
    const info = vi.spyOn(redis.redis, "info");
    const queues = createJobQueues({
      connection: redis.redis,
      prefix: redis.prefix,
      projects: PROJECTS,
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    try {
      await queues.enforceOneJobPerProject();
      await Promise.all(PROJECTS.map((project) => queues.queueFor(project).count()));
      expect(info.mock.calls.length).toBe(1);

      const meta = await redis.redis.hgetall(`${redis.prefix}:${keyspaceOf(redis.redis, redis.prefix).projectQueue(2049)}:meta`);
      // What BullMQ writes when a Queue is made, with the global concurrency of 1 (queue-names.ts).
      const plain = new Queue("plain", { connection: redis.redis, prefix: redis.prefix, skipMetasUpdate: true });
      try {
        expect(meta).toEqual({
          ...Object.fromEntries(Object.entries(plain.metaValues).map(([key, value]) => [key, String(value)])),
          concurrency: "1",
        });
      } finally {
        await plain.close();
      }
    } finally {
      await queues.close();
      info.mockRestore();
    }
  });
});
