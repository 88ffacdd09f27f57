/**
 * Property: whatever the order of add-options requests (case variants such as `Teal` beside the
 * PIM's `teal`, redeliveries of one request, retries of a failed one), syncs (plain and full) and
 * PIM-side changes (options created and deleted in the PIM), after a final sync
 *   - every option the PIM has is in every collection derived from its attribute, under the
 *     PIM's own code, and no collection holds two names that differ only in case;
 *   - no write ever removed an option the PIM had at that moment.
 * Runs go through the job handlers the worker runs (the catalog's handlers, one at a time per project as
 * the queue's global concurrency makes them), with a real Redis state and both simulators.
 */
import { reviewStoresOf } from "../../../src/features/sync/held/review-stores-of.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../../src/jobs/worker/classify-failure.js";
import { JOB_CATALOG, parseJobData } from "../../../src/jobs/catalog/job-catalog.js";
import type { JobContext } from "../../../src/jobs/handlers/job-context.js";
import { createProjectRuntime } from "../../../src/features/project-runtime.js";
import type { PimState } from "../../../sim/pim/pim-state.js";
import { silentLogger } from "../../support/silent-logger.js";
import { PROJECT, SIBLINGS, startWorkerHarness, type WorkerHarness } from "../../support/worker-harness.js";
import { CHAOS_SIZES, chaosSeed } from "../support/chaos-scale.js";
import { chaosCounters } from "../support/chaos-results.js";
import { pimNamesOf } from "../support/pim-names.js";
import { watchWrites } from "../support/write-watch.js";

const SEED = chaosSeed();
/** Attributes open to add-options in the harness, with the collections each derives. */
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  color: SIBLINGS.color ?? [],
  material: SIBLINGS.material ?? [],
  brand: SIBLINGS.brand ?? [],
};
/** Names that collide with each other and with the sample catalogue (red, wool, kartell). */
const BASE_NAMES = ["teal", "red", "wool", "kartell"] as const;
/** How many times a failing add-options job is run again, as BullMQ would (bounded here). */
const MAX_JOB_RUNS = 3;

type Command =
  | { readonly kind: "add"; readonly attribute: string; readonly name: string; readonly deliveries: number }
  | { readonly kind: "sync"; readonly full: boolean }
  | { readonly kind: "pim-add"; readonly attribute: string; readonly name: string }
  | { readonly kind: "pim-remove"; readonly attribute: string; readonly name: string };

const caseVariant = fc
  .tuple(fc.constantFrom(...BASE_NAMES), fc.constantFrom("lower", "capitalized", "upper"))
  .map(([name, variant]) =>
    variant === "lower" ? name : variant === "upper" ? name.toUpperCase() : `${name.charAt(0).toUpperCase()}${name.slice(1)}`,
  );
const attribute = fc.constantFrom(...Object.keys(ATTRIBUTES));

/**
 * The PIM gains an option, then add-options asks for it under another spelling before any sync
 * saw it: the race behind issue 7's defect 3, too rare to come up by chance in a few dozen runs.
 */
const pimThenAddVariant: fc.Arbitrary<Command[]> = fc
  .tuple(attribute, fc.constantFrom(...BASE_NAMES), fc.constantFrom("capitalized", "upper"), fc.integer({ min: 1, max: 2 }))
  .map(([attributeCode, base, variant, deliveries]) => [
    { kind: "pim-add", attribute: attributeCode, name: base },
    {
      kind: "add",
      attribute: attributeCode,
      name: variant === "upper" ? base.toUpperCase() : `${base.charAt(0).toUpperCase()}${base.slice(1)}`,
      deliveries,
    },
  ]);

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("add" as const), attribute, name: caseVariant, deliveries: fc.integer({ min: 1, max: 2 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("sync" as const), full: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("pim-add" as const), attribute, name: caseVariant }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("pim-remove" as const), attribute, name: caseVariant }) },
);

/** The PIM's codes of an attribute (options, or the records of its entity), live. */
function pimEntries(state: PimState, attributeCode: string): { code: string }[] {
  const found = state.attributes.find((candidate) => candidate.code === attributeCode);
  if (found?.reference_data_name && found.type.startsWith("akeneo_reference_entity")) {
    return (state.reference_entity_records[found.reference_data_name] ??= []);
  }
  return (state.attribute_options[attributeCode] ??= []);
}

function pimAdd(state: PimState, attributeCode: string, name: string): void {
  const found = state.attributes.find((candidate) => candidate.code === attributeCode);
  if (pimEntries(state, attributeCode).some((entry) => entry.code.toLowerCase() === name.toLowerCase())) return;
  if (found?.reference_data_name && found.type.startsWith("akeneo_reference_entity")) {
    (state.reference_entity_records[found.reference_data_name] ??= []).push({
      code: name,
      values: { label: [{ locale: "en_US", channel: null, data: `PIM ${name}` }] },
      created: "2024-01-01T00:00:00+00:00",
      updated: "2024-01-01T00:00:00+00:00",
    });
  } else {
    (state.attribute_options[attributeCode] ??= []).push({ code: name, sort_order: 50, labels: { en_US: `PIM ${name}` } });
  }
}

function pimRemove(state: PimState, attributeCode: string, name: string): void {
  const entries = pimEntries(state, attributeCode);
  const index = entries.findIndex((entry) => entry.code.toLowerCase() === name.toLowerCase());
  if (index >= 0) entries.splice(index, 1);
}

async function runScenario(harness: WorkerHarness, graceMs: number, commands: readonly Command[]): Promise<string[]> {
  const settings = harness.settings({ add_options: { recent_addition_grace_ms: graceMs } });
  const project = settings.projects[0];
  if (project === undefined) throw new Error("the harness settings have no project");
  const runtime = createProjectRuntime({
    settings,
    project,
    logger: silentLogger(),
    redis: harness.redis.redis,
    review: reviewStoresOf(settings, harness.redis.redis),
  });
  // Called outside a worker: no deps, so each add-options request runs alone, as the property states.
  const context: JobContext & { readonly deps: Readonly<Record<never, never>> } = {
    deps: {},
    jobId: "property-run",
    runtime,
    settings,
    logger: silentLogger(),
    signal: new AbortController().signal,
    log: async () => undefined,
  };
  const watch = watchWrites(harness.service, harness.pim);
  const problems: string[] = [];
  /** Names add-options put into a collection during the run: kept by the grace window when long. */
  const addedByRequest = new Set<string>();

  const runJob = async (name: "sync.run" | "options.add", data: unknown): Promise<void> => {
    for (let run = 1; run <= MAX_JOB_RUNS; run += 1) {
      try {
        if (name === "sync.run") await JOB_CATALOG["sync.run"].handler(parseJobData("sync.run", data), context);
        else await JOB_CATALOG["options.add"].handler(parseJobData("options.add", data), context);
        return;
      } catch (error) {
        // A rejected request is an answer, not a fault; anything else is retried as BullMQ would.
        if (classifyFailure(error).kind === "permanent") return;
      }
    }
  };

  try {
    for (const [index, step] of commands.entries()) {
      watch.phase(`#${index} ${JSON.stringify(step)}`);
      switch (step.kind) {
        case "add":
          addedByRequest.add(step.name.toLowerCase());
          for (let delivery = 0; delivery < step.deliveries; delivery += 1) {
            await runJob("options.add", {
              project: PROJECT,
              attribute: step.attribute,
              options: [{ name: step.name, label: { en_US: step.name } }],
            });
          }
          break;
        case "sync":
          await runJob("sync.run", { project: PROJECT, full: step.full, trigger: "schedule" });
          break;
        case "pim-add":
          pimAdd(harness.pim.state, step.attribute, step.name);
          break;
        case "pim-remove":
          pimRemove(harness.pim.state, step.attribute, step.name);
          break;
      }
    }
    watch.phase("final sync");
    await JOB_CATALOG["sync.run"].handler(parseJobData("sync.run", { project: PROJECT, trigger: "schedule" }), context);

    problems.push(...watch.lost);
    for (const [attributeCode, collections] of Object.entries(ATTRIBUTES)) {
      const inPim = pimEntries(harness.pim.state, attributeCode).map((entry) => entry.code);
      for (const collection of collections) {
        const names = (harness.service.collections().find((c) => c.project === PROJECT && c.name === collection)?.options ?? []).map(
          (o) => o.name,
        );
        const present = new Set(names);
        for (const code of inPim) if (!present.has(code)) problems.push(`${collection}: the PIM has '${code}' but the collection does not`);
        const byKey = new Map<string, string>();
        for (const name of names) {
          const other = byKey.get(name.toLowerCase());
          if (other !== undefined) problems.push(`${collection}: holds both '${other}' and '${name}' (one PIM code)`);
          byKey.set(name.toLowerCase(), name);
        }
        const pimKeys = pimNamesOf(harness.pim.state, collection) ?? new Set<string>();
        for (const name of names) {
          const key = name.toLowerCase();
          // Without a grace window, a final sync leaves exactly the PIM's options.
          if (!pimKeys.has(key) && (graceMs === 0 || !addedByRequest.has(key)))
            problems.push(`${collection}: keeps '${name}', which the PIM does not have`);
        }
      }
    }
  } finally {
    watch.stop();
    await runtime.close();
  }
  return problems;
}

/**
 * Interleavings known to have broken the invariant (issue 7), run before the random ones.
 * Defect 3: the PIM gains `teal` after a sync, add-options asks for `Teal`, later syncs follow.
 */
const KNOWN_INTERLEAVINGS: [number, Command[]][] = [
  [
    0,
    [
      { kind: "sync", full: false },
      { kind: "pim-add", attribute: "color", name: "teal" },
      { kind: "add", attribute: "color", name: "Teal", deliveries: 1 },
      { kind: "sync", full: false },
    ],
  ],
  [
    15 * 60_000,
    [
      { kind: "sync", full: false },
      { kind: "pim-add", attribute: "material", name: "teal" },
      { kind: "add", attribute: "material", name: "TEAL", deliveries: 2 },
      { kind: "sync", full: true },
    ],
  ],
  // Found by a full run (seed 90122875): an option added as `Kartell`, removed PIM-side, then
  // created again there as `KARTELL` while the addition was still in its grace window. The
  // sync must end with the PIM's new spelling, not keep the old one beside or instead of it.
  [
    15 * 60_000,
    [
      { kind: "sync", full: false },
      { kind: "add", attribute: "color", name: "Kartell", deliveries: 1 },
      { kind: "pim-remove", attribute: "color", name: "Kartell" },
      { kind: "pim-add", attribute: "color", name: "KARTELL" },
    ],
  ],
];

describe(`chaos: add-options, syncs and PIM changes in any order (seed ${SEED})`, () => {
  const results = chaosCounters("add-options-property");

  it("every PIM option ends in every derived collection, and nothing the PIM has is ever deleted", async () => {
    const property = fc.asyncProperty(
      fc.constantFrom(0, 15 * 60_000),
      fc
        .array(fc.oneof({ weight: 5, arbitrary: command.map((one) => [one]) }, { weight: 1, arbitrary: pimThenAddVariant }), {
          minLength: 1,
          maxLength: CHAOS_SIZES.propertyMaxCommands,
        })
        .map((groups) => groups.flat()),
      async (graceMs, commands) => {
        const harness = await startWorkerHarness();
        try {
          const problems = await runScenario(harness, graceMs, commands);
          results.add({
            propertyRuns: 1,
            propertyCommands: commands.length,
            optionsLost: problems.filter((p) => p.includes("while the PIM had it")).length,
          });
          expect(problems).toEqual([]);
        } finally {
          await harness.close();
        }
      },
    );
    // No shrinking: each run starts servers and syncs; the failing sequence and the seed are
    // in the report as they are, and PIM_SYNC_CHAOS_SEED replays them.
    await fc.assert(property, { numRuns: CHAOS_SIZES.propertyRuns, seed: SEED, endOnFailure: true, examples: KNOWN_INTERLEAVINGS });
  });
});
