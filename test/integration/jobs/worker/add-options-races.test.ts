import { describe, expect } from "vitest";
import type { RecordedWrite } from "../../../../sim/config-service/collection-store.js";
import {
  finishedJob,
  isDrained,
  OTHER_PROJECT,
  overlapsInEvents,
  overlapsInRuns,
  pimCodes,
  PROJECT,
  serviceOptions,
  SIBLINGS,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

type Step = { kind: "sync"; full?: boolean } | { kind: "add"; attribute: string; name: string };

interface Round {
  readonly what: string;
  readonly pimLatencyMs: number;
  readonly serviceLatencyMs: number;
  readonly steps: readonly Step[];
  /** Faults and PIM-side edits armed before the round's jobs are enqueued. */
  readonly before?: (h: WorkerHarness) => void;
}

const add = (attribute: string, name: string): Step => ({ kind: "add", attribute, name });
const sync = (full = false): Step => ({ kind: "sync", full });

/** Every interleaving the worker must survive: the order of enqueueing, latencies and faults vary. */
const ROUNDS: readonly Round[] = [
  { what: "sync, then add", pimLatencyMs: 0, serviceLatencyMs: 0, steps: [sync(), add("material", "r0_silk")] },
  { what: "add, then sync", pimLatencyMs: 20, serviceLatencyMs: 0, steps: [add("size_eu", "r1_xxl"), sync()] },
  {
    what: "adds and syncs interleaved",
    pimLatencyMs: 10,
    serviceLatencyMs: 10,
    steps: [add("color", "r2_teal"), sync(), add("material", "r2_wool"), sync(), add("size_eu", "r2_xxs")],
  },
  {
    what: "the PIM changes too, so the syncs write while options are added",
    pimLatencyMs: 30,
    serviceLatencyMs: 0,
    before: (h) => {
      h.pim.state.attribute_options.material?.push({ code: "r3_pim_linen", sort_order: 90, labels: { en_US: "Linen" } });
      h.pim.state.attribute_options.color?.push({ code: "r3_pim_ochre", sort_order: 90, labels: { en_US: "Ochre" } });
    },
    steps: [sync(), add("material", "r3_hemp"), add("color", "r3_navy"), sync()],
  },
  {
    what: "an add whose PIM read fails once (retried in-process)",
    pimLatencyMs: 0,
    serviceLatencyMs: 20,
    before: (h) => h.pim.faults.failNext({ method: "GET", path: "/api/rest/v1/attributes" }, { status: 503 }),
    steps: [add("material", "r4_cork"), sync(), add("color", "r4_plum")],
  },
  {
    what: "the PIM asks to come back in 3 s (a job is delayed, others run meanwhile)",
    pimLatencyMs: 0,
    serviceLatencyMs: 0,
    before: (h) => h.pim.faults.failNext({ method: "GET", path: "/api/rest/v1/attributes" }, { status: 429, retryAfterSeconds: 3 }),
    steps: [add("size_eu", "r5_xs"), sync(), add("material", "r5_jute")],
  },
  {
    what: "a full sync (replace) right after adds, the service slow to list",
    pimLatencyMs: 15,
    serviceLatencyMs: 30,
    before: (h) => h.service.faults.failNext({ method: "GET", path: "/api/v1/options_collections/options_collections" }, { status: 503 }),
    steps: [add("material", "r6_bamboo"), add("color", "r6_lime"), sync(true), add("size_eu", "r6_m2")],
  },
  {
    what: "a reference-entity record and options added around a sync",
    pimLatencyMs: 5,
    serviceLatencyMs: 5,
    before: (h) => h.pim.state.attribute_options.size_eu?.push({ code: "r7_pim_s3", sort_order: 90, labels: { en_US: "S3" } }),
    steps: [sync(), add("brand", "r7_artek"), add("material", "r7_felt"), sync(), add("color", "r7_sand")],
  },
];

/** Replays the accepted writes of one collection: the sequence of its states, one per write. */
function statesAfterWrites(initial: readonly string[], writes: readonly RecordedWrite[]): { write: RecordedWrite; options: Set<string> }[] {
  const options = new Set(initial);
  const states: { write: RecordedWrite; options: Set<string> }[] = [];
  for (const write of writes) {
    const body = write.body as { delete_all?: boolean; delete_options?: string[]; upsert_options?: { name: string }[] };
    if (write.kind === "update-options") {
      if (body.delete_all === true) options.clear();
      for (const name of body.delete_options ?? []) options.delete(name);
    }
    for (const option of body.upsert_options ?? []) options.add(option.name);
    states.push({ write, options: new Set(options) });
  }
  return states;
}

describe("worker: add-options racing syncs", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
  });

  test(`keeps every added option in every sibling collection and in the PIM, over ${ROUNDS.length} interleavings`, async () => {
    const initial = new Map(h.service.collections().map((c) => [c.id, c.options.map((o) => o.name)] as const));
    const nameOf = new Map(h.service.collections().map((c) => [c.id, c.name] as const));
    await h.startWorker();
    const queue = h.queue(PROJECT);
    const added: { attribute: string; name: string }[] = [];

    // Live samples of the service between writes: an added option, once seen, must stay.
    const seen = new Map<string, Set<string>>();
    const vanished: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const collection of h.service.collections().filter((c) => c.project === PROJECT)) {
          const now = new Set(collection.options.map((o) => o.name));
          const before = seen.get(collection.name) ?? new Set<string>();
          for (const name of before) if (!now.has(name)) vanished.push(`${name} left ${collection.name}`);
          const addedHere = added.filter((a) => (SIBLINGS[a.attribute] ?? []).includes(collection.name)).map((a) => a.name);
          seen.set(collection.name, new Set(addedHere.filter((name) => now.has(name))));
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    try {
      for (const round of ROUNDS) {
        h.pim.setLatencyMs(round.pimLatencyMs);
        h.service.setLatencyMs(round.serviceLatencyMs);
        round.before?.(h);
        for (const step of round.steps) {
          if (step.kind === "sync") {
            await h.queues.enqueue("sync.run", { project: PROJECT, full: step.full ?? false, requested_by: round.what });
          } else {
            added.push({ attribute: step.attribute, name: step.name });
            await h.queues.enqueue("options.add", {
              project: PROJECT,
              attribute: step.attribute,
              options: [{ name: step.name, label: { "en-US": step.name } }],
              requested_by: round.what,
            });
          }
        }
        await waitFor(() => isDrained(queue), { timeoutMs: 20_000, what: `round '${round.what}' to drain` });
        expect(await h.admin.list({ state: "failed" }), round.what).toEqual([]);
      }
      h.pim.setLatencyMs(0);
      h.service.setLatencyMs(0);
      const last = await h.queues.enqueue("sync.run", { project: PROJECT, requested_by: "final" });
      expect((await finishedJob(queue, last.jobId)).state).toBe("completed");
    } finally {
      sampling = false;
      await sampler;
    }

    // Every added option is in every sibling collection, and in the PIM.
    for (const { attribute, name } of added) {
      for (const collection of SIBLINGS[attribute] ?? []) {
        expect(
          serviceOptions(h.service, collection).map((o) => o.name),
          `${name} in ${collection}`,
        ).toContain(name);
      }
      expect(pimCodes(h.pim, attribute), `${name} in the PIM's ${attribute}`).toContain(name);
    }
    // PIM-side edits reached every sibling too.
    for (const collection of SIBLINGS.material ?? [])
      expect(serviceOptions(h.service, collection).map((o) => o.name)).toContain("r3_pim_linen");
    for (const collection of SIBLINGS.size_eu ?? [])
      expect(serviceOptions(h.service, collection).map((o) => o.name)).toContain("r7_pim_s3");

    // No write ever took an added option away: replay each collection's writes in order.
    const removals: string[] = [];
    for (const [id, writes] of Object.entries(h.service.writes())) {
      const name = nameOf.get(Number(id)) ?? id;
      const addedHere = new Set(added.filter((a) => (SIBLINGS[a.attribute] ?? []).includes(name)).map((a) => a.name));
      const states = statesAfterWrites(initial.get(Number(id)) ?? [], writes);
      let present = new Set<string>();
      for (const { write, options } of states) {
        for (const option of present) if (!options.has(option)) removals.push(`${write.kind} to ${name} removed ${option}`);
        present = new Set([...options].filter((option) => addedHere.has(option)));
      }
      // The replay agrees with what the service holds.
      expect([...(states.at(-1)?.options ?? [])].sort(), name).toEqual(
        serviceOptions(h.service, name)
          .map((o) => o.name)
          .sort(),
      );
    }
    expect(removals).toEqual([]);
    expect(vanished).toEqual([]);

    // One job at a time for the project, by BullMQ's record and by the handlers' own.
    expect(overlapsInEvents(await h.events(PROJECT))).toEqual([]);
    const runs = h.handlerRuns(PROJECT);
    expect(overlapsInRuns(runs)).toEqual([]);
    expect(runs.filter((run) => run.jobName === "options.add" && run.outcome === "done")).toHaveLength(added.length);
    // Some job was delayed by the PIM's Retry-After and ran again later.
    expect(runs.some((run) => run.verdict === "delay")).toBe(true);
  });

  test("a first sync replaces a collection: options the PIM lacks go (project 99's `color` loses `navy`)", async () => {
    await h.startWorker(h.settings({ projects: [h.project(OTHER_PROJECT)] }));
    const syncJob = await h.queues.enqueue("sync.run", { project: OTHER_PROJECT });
    expect((await finishedJob(h.queue(OTHER_PROJECT), syncJob.jobId)).state).toBe("completed");
    expect(
      serviceOptions(h.service, "color", OTHER_PROJECT)
        .map((o) => o.name)
        .sort(),
    ).toEqual(["black", "blue", "green", "red", "white"]);
  });

  test("an add-options job before a collection's first sync does not keep the sync from replacing it", async () => {
    // Project 99's `color` holds `navy`, which the PIM does not have. A first sync replaces the
    // collection with the PIM's options, so `navy` goes.
    await h.startWorker(h.settings({ projects: [h.project(OTHER_PROJECT, { allowed_options_for_pim_attribute_addition: ["color"] })] }));
    const queue = h.queue(OTHER_PROJECT);
    expect(serviceOptions(h.service, "color", OTHER_PROJECT).map((o) => o.name)).toEqual(["red", "navy"]);

    const addJob = await h.queues.enqueue("options.add", { project: OTHER_PROJECT, attribute: "color", options: [{ name: "teal" }] });
    expect((await finishedJob(queue, addJob.jobId)).state).toBe("completed");
    const syncJob = await h.queues.enqueue("sync.run", { project: OTHER_PROJECT });
    expect((await finishedJob(queue, syncJob.jobId)).state).toBe("completed");

    // The PIM's options plus the added one, as after a first sync: add-options records no state
    // for a collection that had none, so the sync still replaces it (keeping the addition).
    expect(
      serviceOptions(h.service, "color", OTHER_PROJECT)
        .map((o) => o.name)
        .sort(),
    ).toEqual(["black", "blue", "green", "red", "teal", "white"]);
  });
});
