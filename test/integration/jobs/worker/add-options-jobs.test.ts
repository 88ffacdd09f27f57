import { describe, expect } from "vitest";
import { JobDataError } from "../../../../src/jobs/catalog/job-catalog.js";
import type { EnqueuedJob } from "../../../../src/jobs/queues/job-queues.js";
import {
  addOptionsRequests,
  finishedJob,
  pimCodes,
  PROJECT,
  serviceOptions,
  SIBLINGS,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { test } from "../../../support/fixtures.js";

interface AddOptionsResult {
  collections: { collection: string; added: string[]; skipped: string[] }[];
  missing: string[];
}

describe("worker: add-options jobs", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
    await h.startWorker();
    // A first sync: the state then knows what every collection holds.
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(h.queue(), sync.jobId)).state).toBe("completed");
    h.service.clearRequests();
  });

  async function addOptions(attribute: string, options: { name: string; label?: Record<string, string> }[]) {
    const enqueued = await h.queues.enqueue("options.add", { project: PROJECT, attribute, options });
    return finishedJob(h.queue(), enqueued.jobId);
  }

  test("adds an option: the collection and the PIM get it, the result says what was added", async () => {
    const { job, state } = await addOptions("color", [{ name: "teal", label: { "en-US": "Teal", fr_FR: "Sarcelle" } }]);

    expect(state).toBe("completed");
    const result = job.returnvalue as AddOptionsResult;
    expect(result.collections).toEqual([{ collection: "color", added: ["teal"], skipped: [] }]);
    expect(result.missing).toEqual([]);
    expect(serviceOptions(h.service, "color")).toContainEqual({ name: "teal", label: { "en-US": "Teal", "fr-FR": "Sarcelle" } });
    expect(h.pim.state.attribute_options.color).toContainEqual(
      expect.objectContaining({ code: "teal", labels: { en_US: "Teal", fr_FR: "Sarcelle" } }),
    );
    expect(addOptionsRequests(h.service).map((r) => r.status)).toEqual([200]);
  });

  test("gives every sibling collection of a localizable attribute the option, once each", async () => {
    const { job, state } = await addOptions("material", [{ name: "silk", label: { "en-US": "Silk" } }]);

    expect(state).toBe("completed");
    const result = job.returnvalue as AddOptionsResult;
    expect(result.collections.map((c) => c.collection).sort()).toEqual([...(SIBLINGS.material ?? [])]);
    for (const outcome of result.collections) expect(outcome).toMatchObject({ added: ["silk"], skipped: [] });
    const writes = h.service.writes();
    for (const name of SIBLINGS.material ?? []) {
      expect(serviceOptions(h.service, name).filter((o) => o.name === "silk")).toEqual([{ name: "silk", label: { "en-US": "Silk" } }]);
      const id = h.service.collections().find((c) => c.name === name && c.project === PROJECT)?.id ?? -1;
      const adds = (writes[id] ?? []).filter((w) => w.kind === "add-options");
      expect(adds, name).toEqual([expect.objectContaining({ body: { upsert_options: [{ name: "silk", label: { "en-US": "Silk" } }] } })]);
    }
    expect(pimCodes(h.pim, "material").filter((code) => code === "silk")).toEqual(["silk"]);
  });

  test("sends only the options a collection lacks, and reports the others as skipped", async () => {
    const { job, state } = await addOptions("color", [{ name: "red" }, { name: "teal", label: { "en-US": "Teal" } }]);

    expect(state).toBe("completed");
    expect((job.returnvalue as AddOptionsResult).collections).toEqual([{ collection: "color", added: ["teal"], skipped: ["red"] }]);
    const colorId = h.service.collections().find((c) => c.name === "color" && c.project === PROJECT)?.id ?? -1;
    expect((h.service.writes()[colorId] ?? []).filter((w) => w.kind === "add-options").map((w) => w.body)).toEqual([
      { upsert_options: [{ name: "teal", label: { "en-US": "Teal" } }] },
    ]);
  });

  test("succeeds without writing when every option exists already (codes compared case-insensitively)", async () => {
    const { job, state } = await addOptions("color", [{ name: "red" }, { name: "Blue" }]);

    expect(state).toBe("completed");
    // Reported under the PIM's own spelling of the code.
    expect((job.returnvalue as AddOptionsResult).collections).toEqual([{ collection: "color", added: [], skipped: ["red", "blue"] }]);
    expect(addOptionsRequests(h.service)).toEqual([]);
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  describe("rejected at once, as permanent, before any write", () => {
    const cases: { what: string; attribute: string; options: { name: string; label?: Record<string, string> }[]; reason: RegExp }[] = [
      {
        what: "an attribute not allowlisted",
        attribute: "season",
        options: [{ name: "winter" }],
        reason: /'season' is not in allowed_options_for_pim_attribute_addition/,
      },
      {
        what: "a label in a locale the project does not have",
        attribute: "color",
        options: [{ name: "teal", label: { "es-ES": "Verde azulado" } }],
        reason: /label locale\(s\) es-ES are not among the project's locales/,
      },
      {
        what: "an allowlisted attribute that is not a select (metric)",
        attribute: "weight",
        options: [{ name: "STONE" }],
        reason: /'weight' \(pim_catalog_metric\) is not a select or reference-entity attribute/,
      },
    ];
    for (const c of cases) {
      test(c.what, async () => {
        const { job, state } = await addOptions(c.attribute, c.options);

        expect(state).toBe("failed");
        expect(job.attemptsMade).toBe(1);
        expect(job.opts.attempts).toBe(8);
        expect(job.failedReason).toMatch(c.reason);
        expect(addOptionsRequests(h.service)).toEqual([]);
        expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
        const listed = await h.admin.list({ state: "failed" });
        expect(listed).toEqual([
          expect.objectContaining({ ref: `${PROJECT}/${job.id}`, name: "options.add", failedReason: job.failedReason }),
        ]);
      });
    }

    const badData: { what: string; options: { name: string; label?: Record<string, string> }[]; reason: RegExp }[] = [
      {
        what: "a bad option code (bad-name)",
        options: [{ name: "bad-name" }],
        reason: /options\.0\.name: option names may contain only letters, digits and underscores/,
      },
      { what: "a bad label key (xx)", options: [{ name: "teal", label: { xx: "Teal" } }], reason: /\bxx\b/ },
    ];
    for (const c of badData) {
      test(`${c.what}: never queued as it is, and failed at once when another producer queued it`, async () => {
        const data = { project: PROJECT, attribute: "color", options: c.options };
        // The catalog checks data when it is enqueued: refused with the reason, or (when only the
        // run can tell) queued and then rejected below.
        const enqueued: EnqueuedJob | Error = await h.queues.enqueue("options.add", data).catch((error: unknown) => error as Error);
        if (enqueued instanceof Error) {
          expect(enqueued).toBeInstanceOf(JobDataError);
          expect(enqueued.message).toMatch(c.reason);
        }
        // Data written past the catalog (an older version, another producer) is checked again.
        const raw =
          enqueued instanceof Error
            ? await h.queue().add("options.add", data, { attempts: 8, removeOnComplete: true, removeOnFail: { age: 86_400 } })
            : { id: enqueued.jobId };
        const { job, state } = await finishedJob(h.queue(), raw.id ?? "");

        expect(state).toBe("failed");
        expect(job.attemptsMade).toBe(1);
        expect(job.failedReason).toMatch(c.reason);
        expect(addOptionsRequests(h.service)).toEqual([]);
        expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
      });
    }
  });
});
