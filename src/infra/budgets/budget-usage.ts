import { z } from "zod";
import type { Keyspace } from "../redis/keyspace.js";
import type { RedisClient } from "../redis/redis-client.js";
import { redisScript } from "../redis/redis-script.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import { pimConnectionBudgetOf, pimInstanceBudgetOf, serviceBudgetOf } from "./budget-identity.js";

/** Akeneo allows 10 calls in flight per instance, whatever the connections (4 each). */
export const PIM_INSTANCE_IN_FLIGHT = 10;

/** One budget the projects count against: requests per window, or calls in flight. */
export interface ProjectBudget {
  readonly identity: string;
  readonly kind: "requests" | "in_flight";
  readonly limit: number;
  /** For `requests`: the window the limit counts over. */
  readonly windowMs: number;
  /** The projects whose calls count against it. */
  readonly projects: readonly number[];
}

export interface BudgetUsage extends ProjectBudget {
  /** Requests in the window now (in flight or answered within it), or calls in flight now. */
  readonly inUse: number;
  /** How long every process still waits before using the budget (an upstream's Retry-After), 0 when not paused. */
  readonly pausedForMs: number;
}

/**
 * The budgets `createProjectRuntime` (src/features/project-runtime.ts) takes for these projects, in the
 * same identities and with the limits of the first project naming each (which is what sets them
 * in a process). Kept here beside the identities so the two cannot name different keys.
 */
export function budgetsOfProjects(projects: readonly ProjectSettings[]): ProjectBudget[] {
  const found = new Map<string, { budget: Omit<ProjectBudget, "projects">; projects: number[] }>();
  const add = (budget: Omit<ProjectBudget, "projects">, project: number): void => {
    const key = `${budget.kind}\u0000${budget.identity}`;
    const entry = found.get(key);
    if (entry === undefined) found.set(key, { budget, projects: [project] });
    else if (!entry.projects.includes(project)) entry.projects.push(project);
  };
  for (const project of projects) {
    const instance = pimInstanceBudgetOf(project.pim);
    add({ identity: instance, kind: "requests", limit: project.pim.requests_per_second, windowMs: 1000 }, project.id);
    add(
      { identity: `${instance}-option-writes`, kind: "requests", limit: project.pim.option_writes_per_second, windowMs: 1000 },
      project.id,
    );
    add({ identity: pimConnectionBudgetOf(project.pim), kind: "in_flight", limit: project.pim.max_in_flight, windowMs: 0 }, project.id);
    add({ identity: instance, kind: "in_flight", limit: PIM_INSTANCE_IN_FLIGHT, windowMs: 0 }, project.id);
    add(
      { identity: serviceBudgetOf(project.service), kind: "requests", limit: project.service.requests_per_second, windowMs: 1000 },
      project.id,
    );
  }
  return [...found.values()].map(({ budget, projects: ids }) => ({ ...budget, projects: ids }));
}

/**
 * KEYS: a window or a slot set, pause. ARGV: how far back a member still counts (ms; 0 for
 * slots, whose members count while their lease runs). Read only, on Redis's clock as the
 * budget scripts (budget-scripts.ts) count. Answers {in use, pause left in ms}.
 */
const readUsageScript = redisScript(`
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local inUse = redis.call('ZCOUNT', KEYS[1], '(' .. (now - tonumber(ARGV[1])), '+inf')
local paused = redis.call('PTTL', KEYS[2])
if paused < 0 then paused = 0 end
return {inUse, paused}
`);

const usageAnswer = z.tuple([z.number(), z.number()]);

/** Each budget's use now, read from the keys the shared budgets (redis-budget-parts.ts) keep. */
export async function readBudgetUsage(redis: RedisClient, keyspace: Keyspace, budgets: readonly ProjectBudget[]): Promise<BudgetUsage[]> {
  return Promise.all(
    budgets.map(async (budget) => {
      const counted = keyspace.budgetKey(budget.identity, budget.kind === "requests" ? "window" : "slots");
      // A cluster keeps each identity under its own hash tag: the pause key shares the window's.
      const [inUse, pausedForMs] = usageAnswer.parse(
        await readUsageScript(redis, [counted, keyspace.budgetKey(budget.identity, "pause")], [budget.windowMs]),
      );
      return { ...budget, inUse, pausedForMs: budget.kind === "requests" ? pausedForMs : 0 };
    }),
  );
}
