import { describe, expect } from "vitest";
import { exitCodeOf } from "../../../../src/features/sync/sync-report.js";
import { namesOf, PROJECT, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { test } from "../../../support/fixtures.js";

describe("upstream failures during a sync", () => {
  let h: SyncHarness;

  /** A new option in the PIM's color list, for the next sync to add. */
  function addMintToColor(): void {
    const color = h.pim.state.attribute_options["color"] ?? [];
    color.push({ code: "mint", sort_order: 9, labels: { en_US: "Mint" } });
  }

  /** The next run finds no state for `color` and writes it whole again: its 5 options. */
  async function expectNextSyncReplacesColor(): Promise<void> {
    const next = await h.sync();
    expect(next.collections.find((c) => c.collection === "color")).toMatchObject({ action: "replace", reason: "no-state", written: true });
    expect(h.optionsOf("color")).toHaveLength(5);
  }

  test("refreshes an expired PIM token mid-sync and carries on", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness({ pim: { latencyMs: 15 } }));
    const running = h.sync();
    await h.pim.waitForRequest((r) => r.path.endsWith("/options"), 5_000);
    h.pim.expireAllTokens();

    const report = await running;

    expect(report.failures).toEqual([]);
    expect(report.collections.every((c) => c.written)).toBe(true);
    expect(h.pim.requests.some((r) => r.status === 401)).toBe(true);
    expect(h.pim.requests.filter((r) => r.path === "/api/oauth/v1/token").length).toBeGreaterThanOrEqual(2);
  });

  test("rides out 429 and 5xx storms within the retry budget", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    h.pim.faults.failNext({ path: /\/options$/ }, { status: 503, times: 3 });
    h.pim.faults.failNext({ path: /\/records$/ }, { status: 429, times: 2, retryAfterSeconds: null });
    h.service.faults.failNext({ method: "PATCH" }, { status: 429, times: 3, retryAfterSeconds: 0 });
    h.service.faults.failNext({ method: "PATCH" }, { status: 502, times: 2 });

    const report = await h.sync();

    expect(report.failures).toEqual([]);
    expect(report.collections.every((c) => c.written)).toBe(true);
    expect(report.requests.pim.retries).toBeGreaterThanOrEqual(5);
    expect(report.requests.service.rateLimited).toBeGreaterThanOrEqual(3);
    expect(exitCodeOf(report)).toBe(0);
  });

  test("leaves a source's collections untouched when its read keeps failing, and replaces them next time", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    // More failures than the 4 attempts the test policy allows.
    h.pim.faults.failNext({ path: "/api/rest/v1/attributes/color/options" }, { status: 503, times: 10 });

    const report = await h.sync();

    expect(report.collections.find((c) => c.collection === "color")).toBeUndefined();
    expect(report.failures.join("\n")).toMatch(/attribute-options:color/);
    expect(report.permanentFailures).toEqual([]);
    expect(h.optionsOf("color")).toEqual([]);
    expect(report.collections.filter((c) => c.written)).toHaveLength(12);
    expect(exitCodeOf(report)).toBe(1);

    h.pim.faults.clear();
    await expectNextSyncReplacesColor();
  });

  test("a replace that fails half-way forgets the collection's state, so the next run replaces it again", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    await h.sync();
    expect(h.optionsOf("color")).toHaveLength(5);
    // A full replace in writes of 2 options: delete_all + 2 options go through, the second write fails.
    h.service.faults.failNext(
      { method: "PATCH", path: /\/5\/update-options\/$/ },
      { status: 400, after: 1, body: { upsert_options: ["refused"] } },
    );

    const broken = await h.sync({ full: true, maxOptionsPerWrite: 2 });

    expect(broken.collections.find((c) => c.collection === "color")).toMatchObject({ action: "replace", written: false });
    expect(h.optionsOf("color")).toHaveLength(2);
    expect(await h.state.read(PROJECT, "color")).toBeNull();

    await expectNextSyncReplacesColor();
  });

  test("fails a collection whose write is refused, keeps its state, and does not stop the others", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    await h.sync();
    const color = h.pim.state.attribute_options["color"] ?? [];
    color.push({ code: "teal", sort_order: 9, labels: { en_US: "Teal" } });
    const season = h.pim.state.attribute_options["season"] ?? [];
    season.push({ code: "rainy", sort_order: 9, labels: { en_US: "Rainy" } });
    h.service.faults.failNext({ method: "PATCH", path: /\/5\/update-options\/$/ }, { status: 400, body: { upsert_options: ["refused"] } });

    const report = await h.sync();

    expect(report.collections.find((c) => c.collection === "color")).toMatchObject({ written: false });
    expect(report.collections.find((c) => c.collection === "season-ecommerce")).toMatchObject({ written: true });
    expect(exitCodeOf(report)).toBe(1);
    // A 400 would be refused again: the job layer fails such a sync at once.
    expect(report.permanentFailures).toEqual(report.failures);
    const retry = await h.sync();
    expect(retry.collections.find((c) => c.collection === "color")).toMatchObject({ action: "update", upserts: 1, written: true });
  });

  test("an update-options answered 307 once fails that collection: nothing recorded, and the next sync writes the option", async ({
    closeAfter,
  }) => {
    h = closeAfter(await startSyncHarness());
    await h.sync();
    addMintToColor();
    h.service.faults.failNext(
      { method: "PATCH", path: /\/5\/update-options\/$/ },
      { status: 307, body: {}, headers: { location: "https://user:pw@maintenance.example/update" } },
    );

    const report = await h.sync();

    expect(report.collections.find((c) => c.collection === "color")).toMatchObject({ action: "update", upserts: 1, written: false });
    expect(report.failures.join("\n")).toMatch(/307 redirect to https:\/\/maintenance\.example, not followed/);
    expect(report.failures.join("\n")).not.toContain("user:pw");
    // Never followed, never retried: one PATCH of color reached the service, and was not applied.
    expect(report.permanentFailures).toEqual(report.failures);
    expect(namesOf(h.optionsOf("color"))).not.toContain("mint");
    expect([...((await h.state.read(PROJECT, "color")) ?? new Map()).keys()]).not.toContain("mint");
    expect(exitCodeOf(report)).toBe(1);

    const next = await h.sync();
    expect(next.collections.find((c) => c.collection === "color")).toMatchObject({ action: "update", upserts: 1, written: true });
    expect(namesOf(h.optionsOf("color"))).toContain("mint");
    expect([...((await h.state.read(PROJECT, "color")) ?? new Map()).keys()]).toContain("mint");
  });

  test("an update-options answered 200 without its collection's id, or with another collection's summary is not taken as done", async ({
    closeAfter,
  }) => {
    h = closeAfter(await startSyncHarness());
    await h.sync();
    addMintToColor();
    h.service.faults.failNext({ method: "PATCH", path: /\/5\/update-options\/$/ }, { status: 200, body: { status: "ok" } });

    const report = await h.sync();
    expect(report.collections.find((c) => c.collection === "color")).toMatchObject({ written: false });
    expect(report.failures.join("\n")).toMatch(/unexpected response shape: id/);
    expect([...((await h.state.read(PROJECT, "color")) ?? new Map()).keys()]).not.toContain("mint");

    h.service.faults.failNext(
      { method: "PATCH", path: /\/5\/update-options\/$/ },
      { status: 200, body: { id: 6, name: "other", project: PROJECT } },
    );
    const again = await h.sync();
    expect(again.failures.join("\n")).toMatch(/summary of collection 6, not 5/);

    const next = await h.sync();
    expect(next.collections.find((c) => c.collection === "color")).toMatchObject({ upserts: 1, written: true });
  });
});
