import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    retry: 0,
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
        },
      },
      {
        // The benchmark's own tests (bench/ is not the product): fast and pure like the unit project.
        test: {
          name: "bench",
          include: ["test/bench/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          // Bounds on a hang, not on speed: with four files at once on a loaded machine a test of
          // twenty CLI processes took 63 s.
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Four files side by side, on 2 cores too: most of a file's time is waiting (timers,
          // caps, windows, child processes), and each test is isolated already (its own key
          // prefix, port-0 servers, its own redis-servers). A group of its own, after unit and
          // bench, which may differ in workers. docs/testing.md, "How long it takes".
          maxWorkers: integrationWorkers(process.env.PIM_SYNC_INTEGRATION_WORKERS),
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The chaos, property and fuzz suite: reduced inside `npm test`, full with
        // PIM_SYNC_CHAOS_SCALE=full (`npm run test:chaos`); see test/chaos/support/chaos-scale.ts.
        test: {
          name: "chaos",
          include: ["test/chaos/**/*.test.ts"],
          globalSetup: ["test/chaos/support/global-setup.ts"],
          testTimeout: process.env.PIM_SYNC_CHAOS_SCALE === "full" ? 1_800_000 : 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // One file at a time, after unit and integration, not beside them: worker processes, a redis-server of its
          // own and SIGKILLs would otherwise compete with the integration files.
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});

/** PIM_SYNC_INTEGRATION_WORKERS: how many integration files run at once (default 4; 1 = one at a time). */
function integrationWorkers(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 4;
  const workers = Number(raw);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`PIM_SYNC_INTEGRATION_WORKERS must be a whole number >= 1, got '${raw}'`);
  return workers;
}
