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
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
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
          // After unit and integration, not beside them: worker processes, a redis-server of its
          // own and SIGKILLs would otherwise compete with the timing-sensitive integration tests.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
