import { describe, expect, it } from "vitest";
import { createProcessBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";
import { deferred } from "../../../support/deferred.js";

describe("fair shares: round robin per project at each acquisition", () => {
  it("a small job's call waits for one grant of the large job's backlog, not for all of it", async () => {
    const budgets = createProcessBudgets({ maxPauseMs: 60_000 });
    const large = budgets.slots([{ identity: "pim-connection-n-shared", limit: 1 }], "67");
    const small = budgets.slots([{ identity: "pim-connection-n-shared", limit: 1 }], "99");
    const order: string[] = [];
    const gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();
    const call = (slots: typeof large, name: string): Promise<void> =>
      slots.run(async () => {
        order.push(name);
        const gate = deferred();
        gates.set(name, gate);
        await gate.promise;
      });
    const calls = [call(large, "large-0")];
    for (let index = 1; index <= 5; index += 1) calls.push(call(large, `large-${index}`));
    calls.push(call(small, "small"));
    // Each call ends once it has started; the next one in line then gets the slot.
    for (let finished = 0; finished < 7; finished += 1) {
      await waitUntil(() => order.length > finished);
      gates.get(order[finished] ?? "")?.resolve();
    }
    await Promise.all(calls);
    expect(order).toEqual(["large-0", "large-1", "small", "large-2", "large-3", "large-4", "large-5"]);
  });

  it("the rate budget takes the projects in turn too", async () => {
    const budgets = createProcessBudgets({ maxPauseMs: 60_000 });
    const grants: string[] = [];
    const take = (project: string): Promise<void> =>
      budgets
        .rate("service-n-shared", { limit: 100 }, project)
        .acquire()
        .then((settle) => {
          grants.push(project);
          settle();
        });
    await Promise.all([take("67"), take("67"), take("67"), take("67"), take("99"), take("98")]);
    expect(grants).toEqual(["67", "67", "99", "98", "67", "67"]);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
