import { describe, expect } from "vitest";
import type { SimCatalog } from "../../../../sim/catalog/catalog-file.js";
import { finishedJob, PROJECT, serviceOptions, type WorkerHarness } from "../../../support/worker-harness.js";
import { test } from "../../../support/fixtures.js";

/** Reads of the material attribute's options (not involved in any failure): one per attempt of a sync. */
function materialOptionReads(h: WorkerHarness): number {
  return h.pim.requests.filter((r) => r.method === "GET" && r.path === "/api/rest/v1/attributes/material/options").length;
}

describe("worker: a sync whose failures would recur fails at once", () => {
  let h: WorkerHarness;

  test("a collection listed twice in the service: one attempt, the reason kept, the other collections written", async ({ harness }) => {
    h = await harness.start({
      editCatalog: (catalog: SimCatalog) => {
        catalog.service.collections.push({ id: 41, name: "brand", project: PROJECT, options: [] });
      },
    });
    await h.startWorker();
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });

    const { job, state } = await finishedJob(h.queue(), sync.jobId);

    expect(state).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/collection 'brand' exists more than once in project 67/);
    expect(serviceOptions(h.service, "color").length).toBeGreaterThan(0);
    // The PIM was read once: no retry re-reads it.
    expect(materialOptionReads(h)).toBe(1);
    expect(h.handlerRuns(PROJECT).map((run) => run.verdict)).toEqual(["permanent"]);
  });

  test("two attributes deriving one collection name: one attempt, with the clash as the reason", async ({ harness }) => {
    h = await harness.start({
      editCatalog: (catalog: SimCatalog) => {
        const color = catalog.pim.attributes.find((attribute) => attribute.code === "color");
        if (!color) throw new Error("the sample catalogue has no color attribute");
        catalog.pim.attributes.push({ ...color, code: "COLOR", sort_order: 99 });
      },
    });
    await h.startWorker();
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });

    const { job, state } = await finishedJob(h.queue(), sync.jobId);

    expect(state).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/collection name '\w+' from attribute '\w+' clashes with one from attribute '\w+'/);
    expect(materialOptionReads(h)).toBe(1);
  });

  test("a transient failure beside a permanent one is still retried", async ({ harness }) => {
    h = await harness.start({
      editCatalog: (catalog: SimCatalog) => {
        catalog.service.collections.push({ id: 41, name: "brand", project: PROJECT, options: [] });
      },
    });
    // More 503s than one attempt's in-process retries (FAST_HTTP: 3), fewer than two attempts'.
    h.pim.faults.failNext({ path: "/api/rest/v1/attributes/color/options" }, { status: 503, times: 3 });
    await h.startWorker(h.settings({ worker: { sync_timeout_ms: 60_000 } }));
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });

    const { job, state } = await finishedJob(h.queue(), sync.jobId, 60_000);

    expect(state).toBe("failed");
    expect(job.attemptsMade).toBe(2);
    expect(serviceOptions(h.service, "color").length).toBeGreaterThan(0);
  });
});
