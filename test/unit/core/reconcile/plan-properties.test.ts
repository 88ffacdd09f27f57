import { describe, expect, it } from "vitest";
import type { ServiceLabels, ServiceOption } from "../../../../src/core/domain/option-collection.js";
import { nextLastWritten } from "../../../../src/core/reconcile/apply-plan-to-state.js";
import { splitPlanWrites } from "../../../../src/core/reconcile/split-plan-writes.js";
import { lcg, plan } from "./helpers.js";

/** Recently added options by name (their labels do not matter here). */
function recent(...names: string[]): Map<string, Record<string, string>> {
  return new Map(names.map((name) => [name, {}]));
}

// Property-style checks over seeded random collections (no library): a small pool of names,
// locales and texts so that additions, relabels, removals and key-order differences all occur.

const NAMES = Array.from({ length: 40 }, (_, i) => `opt_${i}`);
const LOCALES = ["en-US", "fr-FR", "de-DE", "zh-Hant-TW"];
const TEXTS = ["Red", "Rouge", "Rot", "紅", "Blue", "Bleu"];

type Random = ReturnType<typeof lcg>;

function randomLabels(random: Random): ServiceLabels {
  const locales = LOCALES.filter(() => random.chance(0.5));
  // Shuffle key order so equal labels are often written in a different order.
  for (let i = locales.length - 1; i > 0; i -= 1) {
    const j = random.int(i + 1);
    [locales[i], locales[j]] = [locales[j]!, locales[i]!];
  }
  return Object.fromEntries(locales.map((locale) => [locale, random.pick(TEXTS)]));
}

function reorder(labels: ServiceLabels): ServiceLabels {
  return Object.fromEntries(Object.entries(labels).reverse());
}

function randomCase(random: Random): { lastWritten: Map<string, ServiceLabels>; desired: ServiceOption[] } {
  const lastWritten = new Map<string, ServiceLabels>();
  for (const name of NAMES) if (random.chance(0.4)) lastWritten.set(name, randomLabels(random));
  const desired: ServiceOption[] = [];
  const keepRate = random.next();
  for (const name of NAMES) {
    const before = lastWritten.get(name);
    if (before !== undefined && random.chance(keepRate)) {
      // Kept: same labels (maybe reordered) or relabelled.
      desired.push({ name, label: random.chance(0.6) ? reorder(before) : randomLabels(random) });
    } else if (before === undefined && random.chance(0.2)) {
      desired.push({ name, label: randomLabels(random) });
    }
  }
  // Desired order is not the state's order.
  desired.reverse();
  return { lastWritten, desired };
}

function asMap(options: readonly ServiceOption[]): Map<string, ServiceLabels> {
  return new Map(options.map((option) => [option.name, option.label]));
}

/** Applies the writes the way the service (and the state store) would. */
function applyWrites(
  before: ReadonlyMap<string, ServiceLabels> | null,
  writes: ReturnType<typeof splitPlanWrites>,
): Map<string, ServiceLabels> {
  let current = new Map(before ?? []);
  for (const write of writes) {
    if (write.delete_all) current = new Map();
    for (const name of write.delete_options) current.delete(name);
    for (const option of write.upsert_options) current.set(option.name, option.label);
  }
  return current;
}

const SEEDS = Array.from({ length: 400 }, (_, i) => i + 1);

describe("planCollection + nextLastWritten properties (seeded)", () => {
  it("ends equal to the desired options whenever nothing is held back (update plans)", () => {
    let updates = 0;
    let held = 0;
    for (const seed of SEEDS) {
      const random = lcg(seed);
      const { lastWritten, desired } = randomCase(random);
      const result = plan({ desired, lastWritten });
      expect(result.action).not.toBe("replace");
      if (result.heldBack !== null) {
        held += 1;
        continue;
      }
      if (result.action === "update") updates += 1;
      expect(nextLastWritten(lastWritten, result)).toEqual(asMap(desired));
    }
    // The generator must really exercise both paths.
    expect(updates).toBeGreaterThan(100);
    expect(held).toBeGreaterThan(5);
  });

  it("ends equal to the desired options with allowMassDelete, whatever is removed", () => {
    for (const seed of SEEDS) {
      const { lastWritten, desired } = randomCase(lcg(seed));
      const result = plan({ desired, lastWritten, allowMassDelete: true });
      expect(result.heldBack).toBeNull();
      expect(nextLastWritten(lastWritten, result)).toEqual(asMap(desired));
    }
  });

  it("ends equal to the desired options plus the held-back names (old labels) when the guard trips", () => {
    for (const seed of SEEDS) {
      const { lastWritten, desired } = randomCase(lcg(seed));
      const result = plan({ desired, lastWritten });
      if (result.heldBack === null) continue;
      const expected = asMap(desired);
      for (const name of result.heldBack.names) expected.set(name, lastWritten.get(name)!);
      expect(nextLastWritten(lastWritten, result)).toEqual(expected);
      expect(result.deletes).toEqual([]);
    }
  });

  it("plans nothing the second time (with no guard in the way)", () => {
    for (const seed of SEEDS) {
      const { lastWritten, desired } = randomCase(lcg(seed));
      const first = plan({ desired, lastWritten, allowMassDelete: true });
      const second = plan({ desired, lastWritten: nextLastWritten(lastWritten, first), allowMassDelete: true });
      expect(second.action).toBe("none");
    }
  });

  it("upserts only new or relabelled options and deletes only removed names", () => {
    for (const seed of SEEDS) {
      const { lastWritten, desired } = randomCase(lcg(seed));
      const result = plan({ desired, lastWritten, allowMassDelete: true });
      const desiredNames = new Set(desired.map((o) => o.name));
      for (const option of result.upserts) {
        const before = lastWritten.get(option.name);
        const same =
          before !== undefined &&
          Object.keys(before).length === Object.keys(option.label).length &&
          Object.entries(before).every(([k, v]) => option.label[k] === v);
        expect(same).toBe(false);
      }
      expect(new Set(result.deletes)).toEqual(new Set([...lastWritten.keys()].filter((n) => !desiredNames.has(n))));
    }
  });

  it("with recently added names, ends equal to the desired options plus the kept names (old labels) when nothing is held back", () => {
    let withKept = 0;
    for (const seed of SEEDS) {
      const random = lcg(seed * 31);
      const { lastWritten, desired } = randomCase(random);
      const recentlyAdded = recent(...[...lastWritten.keys()].filter(() => random.chance(0.3)));
      const result = plan({ desired, lastWritten, recentlyAdded, full: random.chance(0.3) });
      const desiredNames = new Set(desired.map((o) => o.name));
      expect(new Set(result.kept)).toEqual(new Set([...recentlyAdded.keys()].filter((n) => !desiredNames.has(n))));
      for (const name of result.kept) expect(result.deletes).not.toContain(name);
      if (result.heldBack !== null) continue;
      if (result.kept.length > 0) withKept += 1;
      const expected = asMap(desired);
      for (const name of result.kept) expected.set(name, lastWritten.get(name)!);
      expect(nextLastWritten(lastWritten, result)).toEqual(expected);
    }
    expect(withKept).toBeGreaterThan(50);
  });

  it("applying the split writes one by one gives the same state as nextLastWritten (full and not, any chunk size)", () => {
    for (const seed of SEEDS) {
      const random = lcg(seed * 7919);
      const { lastWritten, desired } = randomCase(random);
      const start = random.chance(0.15) ? null : lastWritten;
      const result = plan({ desired, lastWritten: start, full: random.chance(0.3), allowMassDelete: random.chance(0.3) });
      const writes = splitPlanWrites(result, 1 + random.int(12));
      expect(applyWrites(start, writes)).toEqual(nextLastWritten(start, result));
    }
  });

  it("a replace (no state or --full) always ends equal to the desired options", () => {
    for (const seed of SEEDS) {
      const { lastWritten, desired } = randomCase(lcg(seed));
      const fromNothing = plan({ desired, lastWritten: null });
      expect(nextLastWritten(null, fromNothing)).toEqual(asMap(desired));
      const full = plan({ desired, lastWritten, full: true });
      if (full.action === "replace") expect(nextLastWritten(lastWritten, full)).toEqual(asMap(desired));
    }
  });
});
