import { describe, it } from "vitest";
import { createProcessBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";

describe("process budgets (`--once` and the CLI without Redis): a Retry-After's pause", () => {
  it("holds the identity's other projects back for at most maxPauseMs (http.max_retry_after_ms), not for the whole Retry-After", async () => {
    const budgets = createProcessBudgets({ maxPauseMs: 20 });
    budgets.rate("service-n-shared", { limit: 10 }, "67").pauseFor(900_000);
    // Granted once the capped pause ends (without the cap, not for 15 minutes: the test times out).
    const settle = await budgets.rate("service-n-shared", { limit: 10 }, "99").acquire();
    settle();
  });
});
