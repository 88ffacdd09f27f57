/**
 * Issue 31 §2: who shares what in the large fleet. P projects on service accounts and PIM
 * connections of different sizes: a few shared by many projects, some held by one project alone.
 * Each account and each connection is its own simulator (its own budget and request log: an
 * upstream counts a budget per account or connection, and the simulators count one per server),
 * so the peaks are read per identity.
 *
 * The two groupings cut across each other (a seeded shuffle), as in a real deployment where the
 * projects of one service account read several PIMs. Projects of each kind:
 * - `scheduled`: a daily cron, spread by the worker's `schedule_jitter_ms` (the large syncs);
 * - `small-job`: no schedule; one-option add-options jobs while the fleet runs. They share the
 *   busiest service account and the PIM connection its simulator is linked to (add-options writes
 *   the option into that PIM), so they compete where the budget is scarcest;
 * - `events`: no schedule, subscribed to PIM events; a stream of one-option changes while the
 *   fleet runs. Spread over the accounts.
 */
import { createSeededRandom } from "../catalog/seeded-random.js";

export const LARGE_FLEET_PROJECTS = 200;
export const LARGE_FLEET_PROCESSES = 8;
export const LARGE_FLEET_CONCURRENCY = 2;
/** Shares of the projects on the shared identities, largest first; the rest are alone (one project each). */
const SERVICE_SHARES = [0.3, 0.25, 0.2, 0.2] as const;
const PIM_SHARES = [0.4, 0.3, 0.25] as const;
const SMALL_JOB_PROJECTS = 4;
const EVENT_PROJECTS = 10;
const FIRST_PROJECT = 1001;
/** The small-job and event projects, and a few scheduled ones on the shared identities. */
export const MIN_LARGE_FLEET_PROJECTS = SMALL_JOB_PROJECTS + EVENT_PROJECTS + 8;

export type LargeFleetRole = "scheduled" | "small-job" | "events";

export interface LargeFleetProject {
  readonly id: number;
  /** Index of its service account (one simulator each). */
  readonly service: number;
  /** Index of its PIM connection (one simulator each). */
  readonly pim: number;
  readonly role: LargeFleetRole;
}

export interface LargeFleetShape {
  readonly projects: readonly LargeFleetProject[];
  readonly serviceAccounts: number;
  readonly pimConnections: number;
  /** The PIM connection each service account's simulator writes added options into. */
  readonly serviceLinkedPim: readonly number[];
}

/** Group sizes: each share of `total` (at least one), then one-project groups for the rest. */
export function groupSizes(total: number, shares: readonly number[]): number[] {
  const alone = Math.max(1, Math.round(total * (1 - shares.reduce((sum, share) => sum + share, 0))));
  const shared = shares.map((share) => Math.max(1, Math.round(total * share)));
  // Rounding: the largest group absorbs the difference, so the sizes add up to the total.
  const excess = shared.reduce((sum, size) => sum + size, 0) + alone - total;
  shared[0] = (shared[0] ?? 0) - excess;
  if ((shared[0] ?? 0) < 1) throw new RangeError(`${total} projects are too few for ${shares.length} shared groups and some alone`);
  return [...shared, ...Array.from({ length: alone }, () => 1)];
}

function assign(order: readonly number[], sizes: readonly number[]): number[] {
  const group: number[] = [];
  let next = 0;
  sizes.forEach((size, index) => {
    for (let count = 0; count < size; count += 1) group[order[next++] ?? 0] = index;
  });
  return group;
}

function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

export function planLargeFleet(projectCount: number, seed: number): LargeFleetShape {
  if (!Number.isInteger(projectCount) || projectCount < MIN_LARGE_FLEET_PROJECTS)
    throw new RangeError(`the large fleet needs at least ${MIN_LARGE_FLEET_PROJECTS} projects, got ${projectCount}`);
  const indexes = Array.from({ length: projectCount }, (_, index) => index);
  const serviceSizes = groupSizes(projectCount, SERVICE_SHARES);
  const pimSizes = groupSizes(projectCount, PIM_SHARES);
  const service = assign(indexes, serviceSizes);
  const pim = assign(createSeededRandom(seed).shuffle(indexes), pimSizes);
  const serviceLinkedPim = serviceSizes.map((_, account) =>
    mostCommon(indexes.filter((index) => service[index] === account).map((index) => pim[index] ?? 0)),
  );

  // Small jobs: in the busiest account (0), on its linked connection, where add-options can be verified.
  const smallJobs = new Set(
    indexes.filter((index) => service[index] === 0 && pim[index] === serviceLinkedPim[0]).slice(0, SMALL_JOB_PROJECTS),
  );
  if (smallJobs.size < SMALL_JOB_PROJECTS) throw new RangeError(`${projectCount} projects leave too few for the small jobs`);
  // Events: every n-th of the others, so that they fall on several accounts and connections.
  const others = indexes.filter((index) => !smallJobs.has(index));
  const stride = Math.floor(others.length / EVENT_PROJECTS);
  const events = new Set(Array.from({ length: EVENT_PROJECTS }, (_, count) => others[count * stride + Math.floor(stride / 2)] ?? 0));

  return {
    projects: indexes.map((index) => ({
      id: FIRST_PROJECT + index,
      service: service[index] ?? 0,
      pim: pim[index] ?? 0,
      role: smallJobs.has(index) ? "small-job" : events.has(index) ? "events" : "scheduled",
    })),
    serviceAccounts: serviceSizes.length,
    pimConnections: pimSizes.length,
    serviceLinkedPim,
  };
}
