import { describe, expect, it } from "vitest";
import { NO_OP_HANDLERS, syncJobOptions } from "../../bench/scenarios/queue-overhead-scenario.js";
import { escapeRedisGlob } from "../../bench/worker/bench-redis.js";
import { benchWorkerSettings } from "../../bench/worker/bench-worker-settings.js";
import { JOB_CATALOG } from "../../src/jobs/catalog/job-catalog.js";
import type { JobContext } from "../../src/jobs/handlers/job-context.js";

describe("benchWorkerSettings", () => {
  it("parses with the benchmark's prefix, one project on the simulators, logs at warn", () => {
    const settings = benchWorkerSettings({
      redisUrl: "redis://127.0.0.1:6379",
      prefix: "pim-sync-bench.0b9f3c1e-8d2a-4c55-9a63-2f4d8e1b7c90",
      project: 67,
      pimUrl: "http://127.0.0.1:4000",
      serviceUrl: "http://127.0.0.1:4001",
      allowedAttributes: ["color", "size"],
      addOptions: { visibility_delay_ms: 100 },
    });
    expect(settings.redis?.prefix).toBe("pim-sync-bench.0b9f3c1e-8d2a-4c55-9a63-2f4d8e1b7c90");
    expect(settings.log_level).toBe("warn");
    expect(settings.add_options.visibility_delay_ms).toBe(100);
    expect(settings.projects).toHaveLength(1);
    expect(settings.projects[0]).toMatchObject({
      id: 67,
      allowed_options_for_pim_attribute_addition: ["color", "size"],
      service: { token: "sim-service-token" },
    });
  });
});

describe("queue overhead setup", () => {
  it("gives both sides the options pim-sync gives its sync jobs", () => {
    expect(syncJobOptions({ keep_completed_days: 7, keep_failed_days: 30 })).toEqual({
      attempts: JOB_CATALOG["sync.run"].attempts,
      backoff: { ...JOB_CATALOG["sync.run"].backoff },
      removeOnComplete: { age: 7 * 86_400, count: 1000 },
      removeOnFail: { age: 30 * 86_400 },
    });
  });

  it("replaces both handlers by no-ops", async () => {
    const context = {} as JobContext;
    await expect(
      NO_OP_HANDLERS["sync.run"]({ project: 67, full: false, allow_mass_delete: false, trigger: "cli" }, context),
    ).resolves.toBeNull();
    await expect(
      NO_OP_HANDLERS["options.add"]({ project: 67, attribute: "color", options: [{ name: "red", label: {} }] }, context),
    ).resolves.toBeNull();
  });
});

describe("escapeRedisGlob", () => {
  it("escapes the glob characters of a MATCH pattern", () => {
    expect(escapeRedisGlob("a*b?c[d]\\e")).toBe("a\\*b\\?c\\[d\\]\\\\e");
    expect(escapeRedisGlob("pim-sync-bench.123")).toBe("pim-sync-bench.123");
  });
});
