import { describe, expect } from "vitest";
import { finishedJob, PROJECT, serviceOptions, type WorkerHarness } from "../../../support/worker-harness.js";
import { test } from "../../../support/fixtures.js";

/**
 * The PIM compares codes case-insensitively; the service compares names as written. An addition
 * spelled differently from the PIM's code must not leave two spellings behind, nor let a later
 * sync delete the one it wrote.
 */
describe("worker: add-options of a case variant of a code the PIM has", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
    // No grace: a sync right after the addition may delete whatever it considers gone.
    await h.startWorker(h.settings({ add_options: { recent_addition_grace_ms: 0 } }));
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(h.queue(), sync.jobId)).state).toBe("completed");
  });

  test("writes the PIM's own code, and the next syncs neither add a second spelling nor delete it", async () => {
    // Created PIM-side after the last sync, so the collection does not have it yet.
    h.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 99, labels: { en_US: "Teal" } });

    const added = await h.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "color",
      options: [{ name: "Teal", label: { "en-US": "Teal" } }],
    });
    expect((await finishedJob(h.queue(), added.jobId)).state).toBe("completed");
    expect(serviceOptions(h.service, "color").filter((option) => option.name.toLowerCase() === "teal")).toEqual([
      { name: "teal", label: { "en-US": "Teal" } },
    ]);

    for (let round = 0; round < 2; round += 1) {
      const sync = await h.queues.enqueue("sync.run", { project: PROJECT });
      expect((await finishedJob(h.queue(), sync.jobId)).state).toBe("completed");
      expect(
        serviceOptions(h.service, "color")
          .filter((option) => option.name.toLowerCase() === "teal")
          .map((option) => option.name),
      ).toEqual(["teal"]);
    }
  });
});
