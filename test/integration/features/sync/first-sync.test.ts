import { describe, expect } from "vitest";
import { exitCodeOf } from "../../../../src/features/sync/sync-report.js";
import { namesOf, PROJECT, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { DERIVED_67 } from "../../../support/worker-harness.js";
import { test } from "../../../support/fixtures.js";

const DERIVED: readonly string[] = DERIVED_67;

describe("a first sync of the sample catalogue", () => {
  let h: SyncHarness;
  test.beforeEach(async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
  });

  test("replaces every derived collection that exists in the service, once each", async () => {
    const report = await h.sync();

    expect(report.collections.map((c) => c.collection)).toEqual(DERIVED);
    for (const outcome of report.collections) {
      expect(outcome).toMatchObject({ action: "replace", reason: "no-state", written: true });
    }
    const writes = h.service.writes();
    for (const collection of h.service.collections().filter((c) => DERIVED.includes(c.name) && c.project === PROJECT)) {
      const bodies = writes[collection.id] ?? [];
      expect(bodies, collection.name).toHaveLength(1);
      expect(bodies[0]).toMatchObject({ kind: "update-options", body: { delete_all: true } });
    }
    expect(report.failures).toEqual([]);
    expect(exitCodeOf(report)).toBe(0);
  });

  test("derives options and labels for every attribute kind", async () => {
    await h.sync();

    // Simple select: null and empty labels dropped, en_US keys become en-US.
    // The PIM lists options by code.
    expect(h.optionsOf("color")).toEqual([
      { name: "black", label: { "en-US": "Black" } },
      { name: "blue", label: { "de-DE": "Blau", "en-US": "Blue", "fr-FR": "Bleu" } },
      { name: "green", label: { "en-US": "Green", "fr-FR": "Vert" } },
      { name: "red", label: { "de-DE": "Rot", "en-US": "Red", "fr-FR": "Rouge" } },
      { name: "white", label: { "en-US": "White" } },
    ]);
    // Localizable: one collection per enabled locale (es_ES is disabled), same options in each.
    expect(namesOf(h.optionsOf("material-en_US"))).toEqual(namesOf(h.optionsOf("material-de_DE")));
    // Localizable + scopable + available_locales [en_US, fr_FR]: no de_DE collection exists.
    expect(h.optionsOf("size_eu-fr_FR-mobile").length).toBeGreaterThan(0);
    // Reference entities: records, labelled by their `label` values.
    expect(namesOf(h.optionsOf("brand"))).toEqual(["hay", "kartell", "ligneroset", "muuto", "usm", "vitra"]);
    expect(h.optionsOf("brand").find((o) => o.name === "kartell")?.label["en-US"]).toBe("Kartell");
    expect(h.optionsOf("designers")).toHaveLength(3);
    // Metric: the measurement family's units.
    expect(namesOf(h.optionsOf("weight-unit"))).toEqual(["GRAM", "KILOGRAM", "OUNCE", "POUND"]);
    // Price: the currencies of the project's channels, enabled ones only (GBP is disabled).
    expect(h.optionsOf("price-currency")).toEqual([
      { name: "EUR", label: {} },
      { name: "USD", label: {} },
    ]);
  });

  test("reports missing collections and unsupported attributes, and leaves other collections alone", async () => {
    const before99 = h.optionsOf("color", 99);
    const beforeManual = h.optionsOf("manual_list");

    const report = await h.sync();

    expect(report.missing).toEqual([{ collection: "season-mobile", field: "season-mobile", attribute: "season" }]);
    expect(report.unsupported.map((u) => u.attribute)).toEqual(["legacy_fabric"]);
    expect(h.optionsOf("color", 99)).toEqual(before99);
    expect(h.optionsOf("manual_list")).toEqual(beforeManual);
    const untouchedIds = h.service
      .collections()
      .filter((c) => c.project !== PROJECT || c.name === "manual_list")
      .map((c) => c.id);
    for (const id of untouchedIds) expect(h.service.writes()[id] ?? []).toEqual([]);
  });

  test("keeps to its own project's collections even when the service's list ignores the project filter", async ({ closeAfter }) => {
    await h.close();
    h = closeAfter(await startSyncHarness({ service: { ignoreProjectFilter: true } }));
    const before99 = h.optionsOf("color", 99);

    const report = await h.sync();

    // Project 99 has a `color` too: taken for one of 67's, it would be a duplicate (or written).
    expect(report.failures).toEqual([]);
    expect(report.collections.find((c) => c.collection === "color")).toMatchObject({ written: true });
    expect(h.optionsOf("color", 99)).toEqual(before99);
    const otherIds = h.service
      .collections()
      .filter((c) => c.project !== PROJECT)
      .map((c) => c.id);
    for (const id of otherIds) expect(h.service.writes()[id] ?? []).toEqual([]);
  });

  test("writes nothing on a second run when the PIM did not change", async () => {
    await h.sync();
    h.service.clearRequests();

    const second = await h.sync();

    expect(second.collections.every((c) => c.action === "none" && !c.written)).toBe(true);
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(second.requests.service.writes).toBe(0);
    expect(exitCodeOf(second)).toBe(0);
  });

  test("plans without writing anything in a dry run", async () => {
    const seen: string[] = [];
    const report = await h.sync({ dryRun: true, onCollection: (collection) => seen.push(collection.spec.name) });

    expect(seen.sort()).toEqual(DERIVED);
    expect(report.collections.every((c) => c.action === "replace" && !c.written)).toBe(true);
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(await h.redis.keys()).toEqual([]);
  });

  test("replaces every collection again under --full", async () => {
    await h.sync();
    h.service.clearRequests();

    const report = await h.sync({ full: true });

    expect(report.collections.every((c) => c.action === "replace" && c.reason === "full" && c.written)).toBe(true);
    expect(h.service.requests.filter((r) => r.method === "PATCH" && r.status === 200)).toHaveLength(DERIVED.length);
  });
});
