/**
 * Figure 5's pure half: which attributes receive the additions, the jobs that add them, and the
 * floor the upstream budgets set for them. The scenario (add-options-scenario.ts) runs the jobs.
 */
import type { CollectionSpec } from "../../src/core/domain/option-collection.js";
import type { JobInput } from "../../src/jobs/catalog/job-catalog.js";
import { computeFloor, REAL_BUDGETS, type Floor, type UpstreamBudgets } from "../floor/compute-floor.js";

/** The figure: 1,000 additions spread over 20 collections. */
export const ADD_OPTIONS_ADDITIONS = 1000;
export const ADD_OPTIONS_COLLECTIONS = 20;

/**
 * Requests every addition costs at least, one option per job:
 * - service: one add-options call per collection the attribute derives;
 * - PIM: one GET of the option before the write (does the PIM have it already?) and one after
 *   (does it show it?).
 * Reading the structure and the collection list, once per worker and cache period, is left out.
 */
export const PIM_REQUESTS_PER_ADDITION = 2;

export interface AttributeFacts {
  readonly code: string;
  readonly type: string;
  readonly localizable: boolean;
  readonly scopable: boolean;
}

export interface AddOptionsTarget {
  readonly attribute: string;
  readonly type: string;
  /** The collections the attribute derives: one for a non-localizable, non-scopable attribute. */
  readonly collections: readonly string[];
}

const SELECT_TYPES: ReadonlySet<string> = new Set(["pim_catalog_simpleselect", "pim_catalog_multiselect"]);

/**
 * Simple and multi select attributes whose collections add up to `collections`: attributes with
 * one collection (neither localizable nor scopable) first, in catalogue order; when there are not
 * enough of them, attributes with several collections (localizable or scopable ones) make up the
 * rest, as few of those collections as possible. The total is exactly `collections` whenever the
 * catalogue allows it, else as close below as it can be.
 */
export function pickAddOptionsTargets(
  specs: readonly Pick<CollectionSpec, "name" | "attribute" | "kind">[],
  attributes: readonly AttributeFacts[],
  collections: number = ADD_OPTIONS_COLLECTIONS,
): AddOptionsTarget[] {
  const byAttribute = new Map<string, string[]>();
  for (const spec of specs) {
    if (spec.kind !== "select") continue;
    const names = byAttribute.get(spec.attribute) ?? [];
    names.push(spec.name);
    byAttribute.set(spec.attribute, names);
  }
  const candidates = attributes.flatMap((attribute): AddOptionsTarget[] => {
    const names = byAttribute.get(attribute.code) ?? [];
    return SELECT_TYPES.has(attribute.type) && names.length > 0
      ? [{ attribute: attribute.code, type: attribute.type, collections: [...names] }]
      : [];
  });
  const singles = candidates.filter((target) => target.collections.length === 1);
  // Fewest collections first, catalogue order within a count (the sort is stable).
  const multiples = candidates
    .filter((target) => target.collections.length > 1)
    .sort((a, b) => a.collections.length - b.collections.length);

  // Every total the multi-collection attributes can make, up to `collections`, with the first
  // way found (preferring attributes with fewer collections).
  const ways = new Map<number, AddOptionsTarget[]>([[0, []]]);
  for (const target of multiples) {
    for (const [sum, way] of [...ways].sort((a, b) => b[0] - a[0])) {
      const next = sum + target.collections.length;
      if (next <= collections && !ways.has(next)) ways.set(next, [...way, target]);
    }
  }
  // As many single-collection attributes as possible: the smallest multi-collection total that
  // they can complete, else the largest one below it.
  const needed = Math.max(0, collections - singles.length);
  const sums = [...ways.keys()].sort((a, b) => a - b);
  const sum = sums.find((candidate) => candidate >= needed) ?? sums.filter((candidate) => candidate < needed).pop() ?? 0;
  return [...singles.slice(0, Math.min(singles.length, collections - sum)), ...(ways.get(sum) ?? [])];
}

/**
 * `additions` jobs of one new option each, dealt round-robin over the targets (so that 1,000 over
 * 20 attributes is 50 per attribute, and consecutive jobs go to different collections). Codes
 * `bench_add_<n>` never exist in a generated catalogue (its codes are `o000000`…).
 */
export function addOptionsJobs(
  project: number,
  targets: readonly AddOptionsTarget[],
  labelLocale: string,
  additions: number = ADD_OPTIONS_ADDITIONS,
): JobInput<"options.add">[] {
  if (targets.length === 0) throw new Error("no attribute to add options to");
  return Array.from({ length: additions }, (_, n) => {
    const target = targets[n % targets.length] as AddOptionsTarget;
    return {
      project,
      attribute: target.attribute,
      options: [{ name: `bench_add_${n}`, label: { [labelLocale]: `Bench addition ${n}` } }],
      requested_by: "bench",
    };
  });
}

export interface AddOptionsMinimal {
  /** add-options calls: one per job and collection of its attribute. */
  readonly service: number;
  /** Option GETs: before and after each addition. */
  readonly pim: number;
}

export function addOptionsMinimal(jobs: readonly JobInput<"options.add">[], targets: readonly AddOptionsTarget[]): AddOptionsMinimal {
  const collectionsOf = new Map(targets.map((target) => [target.attribute, target.collections.length]));
  let service = 0;
  let pim = 0;
  for (const job of jobs) {
    service += collectionsOf.get(job.attribute) ?? 0;
    pim += PIM_REQUESTS_PER_ADDITION * job.options.length;
  }
  return { service, pim };
}

/**
 * The one-call-per-addition floor: the service's add-options calls at its 10 req/s, the PIM's
 * GETs at its rate, whichever takes longer (see computeFloor).
 */
export function addOptionsFloor(minimal: AddOptionsMinimal, latencyMs: number, budgets: UpstreamBudgets = REAL_BUDGETS): Floor {
  return computeFloor(minimal, latencyMs, budgets);
}

/**
 * The floor of merged additions (what the worker does, see src/features/add-options/): every job is queued
 * at once, so at best one add-options call per collection, and per attribute one PIM check before
 * and one after for all its pending options, each the cheaper of reading the attribute's list
 * (a count, then one request per 100 options) and one GET per option. `optionCounts` are the
 * attributes' options before the additions.
 */
export function mergedAdditionsFloor(
  jobs: readonly JobInput<"options.add">[],
  targets: readonly AddOptionsTarget[],
  optionCounts: ReadonlyMap<string, number>,
  latencyMs: number,
  budgets: UpstreamBudgets = REAL_BUDGETS,
): Floor {
  const calls = targets.reduce((sum, target) => sum + target.collections.length, 0);
  let pim = 0;
  for (const target of targets) {
    const names = jobs.filter((job) => job.attribute === target.attribute).reduce((sum, job) => sum + job.options.length, 0);
    if (names === 0) continue;
    const before = optionCounts.get(target.attribute) ?? 0;
    pim += pimCheckRequests(names, before) + pimCheckRequests(names, before + names);
  }
  return computeFloor({ pim, service: calls }, latencyMs, budgets);
}

/** One check of `names` options of an attribute holding `count`: the cheaper way (see plan-pim-check.ts). */
export function pimCheckRequests(names: number, count: number): number {
  return Math.min(names, 1 + Math.max(1, Math.ceil(count / 100)));
}
