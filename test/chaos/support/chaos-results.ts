/**
 * The figures docs/reliability.md quotes, counted by the tests themselves: each test file adds to its
 * own counters and writes them to the run's results folder (from the global setup); the global
 * teardown adds the files up into one summary.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

export interface ChaosCounters {
  faultsInjected: number;
  faultScenarios: number;
  sigkillsSurvived: number;
  redisRestartsSurvived: number;
  fuzzCases: number;
  propertyRuns: number;
  propertyCommands: number;
  /** Options the PIM had that a write removed from the service: must stay 0. */
  optionsLost: number;
  /** Writes made from a read that failed or was incomplete: must stay 0. */
  writesFromPartialReads: number;
}

export function emptyCounters(): ChaosCounters {
  return {
    faultsInjected: 0,
    faultScenarios: 0,
    sigkillsSurvived: 0,
    redisRestartsSurvived: 0,
    fuzzCases: 0,
    propertyRuns: 0,
    propertyCommands: 0,
    optionsLost: 0,
    writesFromPartialReads: 0,
  };
}

/** Counters of one test file, saved under `name` after every change (a crash keeps what was counted). */
export function chaosCounters(name: string): { readonly counters: ChaosCounters; add(delta: Partial<ChaosCounters>): void } {
  const counters = emptyCounters();
  const dir = inject("chaosResultsDir");
  return {
    counters,
    add(delta) {
      for (const [key, value] of Object.entries(delta) as [keyof ChaosCounters, number][]) counters[key] += value;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(counters)}\n`);
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    chaosResultsDir: string;
    chaosScale: string;
  }
}
