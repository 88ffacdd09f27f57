import { createConcurrencyLimiter } from "../http/concurrency-limiter.js";
import { createSlidingWindowLimiter, type RateLimiter, type SettleRequest } from "../http/sliding-window-limiter.js";
import { allSlotsOf, type CallSlots, type SlotGate } from "../http/call-slots.js";
import { createFairTurns, type FairTurns } from "./fair-turns.js";
import { isUrgentRequest } from "./request-urgency.js";
import { redisRateLimiter, redisSlotGate, type RedisBudgetContext } from "./redis-budget-parts.js";

export interface RateBudget {
  readonly limit: number;
  /** 1,000 ms unless the upstream counts over a longer window (a rate below 1/s). */
  readonly windowMs?: number;
}

/**
 * The upstream budgets of a process, one per identity (src/infra/budgets/budget-identity.ts), handed
 * to each project as its own view: every project's calls against one identity share its budget,
 * and take their turns round robin (fair-turns.ts). The first project to ask for an identity
 * sets its limits in this process: projects sharing an upstream should say the same limits.
 */
export interface UpstreamBudgets {
  /** Where the budgets live: `redis` shared by every process, `process` this process only. */
  readonly scope: "redis" | "process";
  rate(identity: string, budget: RateBudget, project: string): RateLimiter;
  /** A slot of each budget, taken in the order given, for each call. */
  slots(budgets: readonly { readonly identity: string; readonly limit: number }[], project: string): CallSlots;
}

/**
 * One budget of the process: its limiter, and the lines of its callers. Urgent callers (a small
 * job's, request-urgency.ts) have lines of their own, asked for beside the others' rather than
 * behind them, and their asks reach the part of the window the others leave to them.
 */
interface RateEntry {
  readonly limiter: RateLimiter;
  readonly turns: FairTurns<SettleRequest>;
  readonly urgentTurns: FairTurns<SettleRequest>;
}

interface BudgetMaker {
  readonly scope: UpstreamBudgets["scope"];
  rate(identity: string, limit: number, windowMs: number): RateLimiter;
  gate(identity: string, limit: number): SlotGate;
}

function upstreamBudgets(make: BudgetMaker): UpstreamBudgets {
  const rates = new Map<string, RateEntry>();
  const gates = new Map<string, { readonly turns: FairTurns<() => void> }>();

  function rateEntry(identity: string, budget: RateBudget): RateEntry {
    const found = rates.get(identity);
    if (found) return found;
    const limiter = make.rate(identity, budget.limit, budget.windowMs ?? 1000);
    // A caller that left while its grant was under way: its request is counted as made (it may have been).
    const turnsOf = (urgent: boolean): FairTurns<SettleRequest> =>
      createFairTurns<SettleRequest>(
        (signal) => limiter.acquire(signal, urgent),
        (settle) => settle(),
      );
    const entry = { limiter, turns: turnsOf(false), urgentTurns: turnsOf(true) };
    rates.set(identity, entry);
    return entry;
  }

  function gateFor(identity: string, limit: number, project: string): SlotGate {
    let entry = gates.get(identity);
    if (!entry) {
      const gate = make.gate(identity, limit);
      entry = {
        turns: createFairTurns<() => void>(
          (signal) => gate.acquire(signal),
          (release) => release(),
        ),
      };
      gates.set(identity, entry);
    }
    const { turns } = entry;
    return { acquire: (signal) => turns.take(project, signal) };
  }

  return {
    scope: make.scope,
    rate(identity, budget, project) {
      const { limiter, turns, urgentTurns } = rateEntry(identity, budget);
      return {
        acquire: (signal) => (isUrgentRequest() ? urgentTurns : turns).take(project, signal),
        pauseFor: (ms) => limiter.pauseFor(ms),
      };
    },
    slots(budgets, project) {
      return allSlotsOf(budgets.map((budget) => gateFor(budget.identity, budget.limit, project)));
    },
  };
}

/**
 * Budgets of this process only: `--once` and the CLI without Redis. `maxPauseMs` is
 * `http.max_retry_after_ms`, the longest pause a budget keeps and waits for (sliding-window-limiter.ts).
 */
export function createProcessBudgets(options: { readonly maxPauseMs: number }): UpstreamBudgets {
  return upstreamBudgets({
    scope: "process",
    rate: (_identity, limit, windowMs) => createSlidingWindowLimiter({ limit, windowMs, maxPauseMs: options.maxPauseMs }),
    gate: (_identity, limit) => {
      const limiter = createConcurrencyLimiter(limit);
      return { acquire: (signal) => limiter.acquire(signal) };
    },
  });
}

/** Budgets shared through Redis by every process on it (one server or a Cluster: one hash tag per identity). */
export function createRedisBudgets(ctx: RedisBudgetContext): UpstreamBudgets {
  return upstreamBudgets({
    scope: "redis",
    rate: (identity, limit, windowMs) => redisRateLimiter(ctx, identity, { limit, windowMs }),
    gate: (identity, limit) => redisSlotGate(ctx, identity, limit),
  });
}
