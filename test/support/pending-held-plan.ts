import type { HeldPlan } from "../../src/features/sync/held/held-plan.js";

/**
 * A pending plan as a run whose guard held deletions back writes it (held now, by a scheduled
 * job, expiring in an hour): for tests that need a plan to review without staging the removal.
 */
export function pendingHeldPlan(args: {
  readonly id: string;
  readonly project: number;
  readonly collection: string;
  readonly options: readonly string[];
  readonly reason: string;
}): HeldPlan {
  const now = Date.now();
  return {
    id: args.id,
    project: args.project,
    collections: [{ collection: args.collection, options: [...args.options], reason: args.reason }],
    heldAt: new Date(now).toISOString(),
    lastHeldAt: new Date(now).toISOString(),
    run: { job: `${args.project}/1`, trigger: "schedule" },
    expiresAt: new Date(now + 3_600_000).toISOString(),
    approved: null,
    revision: 0,
  };
}
