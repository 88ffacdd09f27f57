import { describe, expect, it } from "vitest";
import { familyOfKey, KEY_FAMILIES, type KeyFamily } from "../../bench/capacity/key-family.js";
import { project30Days } from "../../bench/capacity/project-30-days.js";
import type { RedisFootprint } from "../../bench/capacity/redis-footprint.js";

const P = "pim-sync-bench.x";

function footprint(families: Partial<Record<KeyFamily, { keys: number; bytes: number }>>): RedisFootprint {
  const all = Object.fromEntries(KEY_FAMILIES.map((family) => [family, families[family] ?? { keys: 0, bytes: 0 }])) as Record<
    KeyFamily,
    { keys: number; bytes: number }
  >;
  const values = Object.values(all);
  return { keys: values.reduce((sum, f) => sum + f.keys, 0), bytes: values.reduce((sum, f) => sum + f.bytes, 0), families: all };
}

describe("capacity: the family of a key", () => {
  it.each([
    [`${P}:state:67:known`, "state"],
    [`${P}:state:{project-67}:color`, "state"],
    [`${P}:history:67`, "history"],
    [`${P}:job-status:67:12`, "job-status"],
    [`${P}:pim-events:67:seen-on:20419`, "pim-events:dedupe"],
    [`${P}:pim-events:67:seen:evt-1`, "pim-events:dedupe"],
    [`${P}:pim-events:67:log`, "pim-events:other"],
    [`${P}:project-67:12`, "queue:jobs"],
    [`${P}:project-67:12:logs`, "queue:jobs"],
    [`${P}:{project-67}:repeat:abc`, "queue:schedules"],
    [`${P}:project-67:events`, "queue:events-stream"],
    [`${P}:project-67:completed`, "queue:other"],
    [`${P}:project-67:meta`, "queue:other"],
    [`${P}:budget:service-3f:window`, "budget"],
    [`${P}:full-sync:67:12`, "other"],
    [`another:state:67:known`, "other"],
  ] as const)("%s is %s", (key, family) => {
    expect(familyOfKey(P, key)).toBe(family);
  });
});

describe("capacity: a project's 30 days, projected", () => {
  it("adds the runs still kept on day 30 (jobs capped by days and count, statuses by their window) and the history of 1% a day", () => {
    const projection = project30Days({
      afterFirstSync: footprint({ state: { keys: 10, bytes: 100_000 } }),
      perNoopSync: footprint({ "queue:jobs": { keys: 2, bytes: 1_500 }, "job-status": { keys: 1, bytes: 440 } }),
      perChangingSync: footprint({ history: { keys: 0, bytes: 46_000 } }),
      changedOptions: 200,
      options: 10_000,
      retention: { completedDays: 7, statusDays: 30 },
    });
    expect(projection).toEqual({
      bytes: 100_000 + 168 * 1_500 + 720 * 440 + 3_000 * 230,
      first_sync_bytes: 100_000,
      queue_jobs_kept: 168,
      queue_jobs_bytes: 168 * 1_500,
      job_statuses_kept: 720,
      job_status_bytes: 720 * 440,
      changed_options_30_days: 3_000,
      history_bytes: 3_000 * 230,
    });
  });

  it("counts 30 days of runs, no more, when jobs and statuses are kept longer", () => {
    const projection = project30Days({
      afterFirstSync: footprint({}),
      perNoopSync: footprint({ "queue:jobs": { keys: 2, bytes: 1_000 } }),
      perChangingSync: footprint({}),
      changedOptions: 0,
      options: 0,
      retention: { completedDays: 60, statusDays: 60 },
    });
    expect(projection.queue_jobs_kept).toBe(720);
    expect(projection.job_statuses_kept).toBe(720);
  });
});

describe("capacity: one final-status record per run", () => {
  it("takes a record's bytes per key, whatever else landed in the measured delta", () => {
    const projection = project30Days({
      afterFirstSync: footprint({}),
      perNoopSync: footprint({ "job-status": { keys: 2, bytes: 976 } }),
      perChangingSync: footprint({}),
      changedOptions: 0,
      options: 0,
      retention: { completedDays: 7, statusDays: 30 },
    });
    expect(projection.job_status_bytes).toBe(720 * 488);
  });
});
