import type { ServiceLabels, ServiceOption } from "../../../../src/core/domain/option-collection.js";
import type { DeletionGuard, LastWritten } from "../../../../src/core/reconcile/collection-plan.js";
import { planCollection, type PlanCollectionInput } from "../../../../src/core/reconcile/plan-collection.js";

export const GUARD: DeletionGuard = { maxFraction: 0.5, minCount: 10 };

export function opt(name: string, label: ServiceLabels = { "en-US": name }): ServiceOption {
  return { name, label };
}

export function state(...options: ServiceOption[]): Map<string, ServiceLabels> {
  return new Map(options.map((option) => [option.name, option.label]));
}

/** `count` options named prefix0..prefix{count-1}. */
export function many(count: number, prefix = "o"): ServiceOption[] {
  return Array.from({ length: count }, (_, index) => opt(`${prefix}${index}`));
}

export function plan(overrides: Partial<PlanCollectionInput> & { desired: readonly ServiceOption[]; lastWritten: LastWritten }) {
  return planCollection({ collection: "color", full: false, allowMassDelete: false, guard: GUARD, ...overrides });
}

/** A small deterministic generator (Park–Miller LCG), so property checks need no library. */
export function lcg(seed: number): {
  next: () => number;
  int: (n: number) => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
} {
  let value = seed % 2147483647;
  if (value <= 0) value += 2147483646;
  const next = (): number => {
    value = (value * 48271) % 2147483647;
    return (value - 1) / 2147483646;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}
