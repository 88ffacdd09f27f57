import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whether the requests made now are a small job's (a targeted sync of PIM events, an add-options
 * job): such requests go ahead of a full sync's at a shared budget (upstream-budgets.ts,
 * budget-scripts.ts). Carried by the job's async context rather than passed down: the budget is
 * taken deep in the HTTP client, which every kind of job shares through its project's runtime,
 * and a parameter would have to cross every upstream client and feature in between.
 */
const urgency = new AsyncLocalStorage<true>();

/** Runs `work` with every budgeted request it makes, however deep, counted as urgent. */
export function runUrgent<T>(work: () => T): T {
  return urgency.run(true, work);
}

/** Whether the caller runs inside `runUrgent`. */
export function isUrgentRequest(): boolean {
  return urgency.getStore() === true;
}
