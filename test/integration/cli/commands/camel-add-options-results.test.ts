import { beforeAll, describe, expect } from "vitest";
import { assertCliBuilt, waitForExit } from "../../../support/process-cli.js";
import { writeTestConfig } from "../../../support/process-config.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { test } from "../../../support/fixtures.js";

const PROJECT = 67;

describe("jobs show --json-keys camel: an add-options result keeps the keys it always had", () => {
  beforeAll(() => assertCliBuilt());

  test("merged_into and batch.left_to_run / batch.service_calls stay snake_case; the job's own fields are camelCase", async ({
    sims,
    redis,
    queues,
    tempDir,
    cli,
  }) => {
    const configPath = await writeTestConfig(tempDir, {
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      logLevel: "info",
      projectExtras: { allowed_options_for_pim_attribute_addition: ["material"] },
    });
    // Queued before a worker runs: the first runs both, the second is merged into it.
    const leader = await queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "silk" }] });
    const merged = await queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "wool" }] });
    const worker = await cli.startWorker(configPath);
    await waitForJobState(queues, PROJECT, leader.jobId, "completed", 60_000);
    await waitForJobState(queues, PROJECT, merged.jobId, "completed", 60_000);
    worker.signal("SIGTERM");
    expect(await waitForExit(worker, 25_000)).toEqual({ code: 0, signal: null });

    const show = async (id: string): Promise<unknown> => {
      const proc = cli.spawn(["jobs", "show", `${PROJECT}/${id}`, "--json", "--json-keys", "camel", "--config", configPath]);
      expect(await waitForExit(proc, 30_000)).toEqual({ code: 0, signal: null });
      return JSON.parse(proc.stdout());
    };
    const shownLeader = (await show(leader.jobId)) as { attemptsMade: number; result: Record<string, unknown> };
    expect(shownLeader.attemptsMade).toBe(1);
    expect(shownLeader.result).toMatchObject({
      status: "added",
      merged_into: null,
      batch: { requests: 2, left_to_run: 0, service_calls: expect.any(Number) as unknown },
    });
    expect(shownLeader.result).not.toHaveProperty("mergedInto");
    expect(shownLeader.result["batch"]).not.toHaveProperty("leftToRun");
    expect(shownLeader.result["batch"]).not.toHaveProperty("serviceCalls");
    const shownMerged = (await show(merged.jobId)) as { result: Record<string, unknown> };
    expect(shownMerged.result).toMatchObject({ status: "added", merged_into: leader.jobId });
    expect(shownMerged.result).not.toHaveProperty("mergedInto");
  });
});
