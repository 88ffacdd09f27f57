import { approveHeldPlan } from "../../../../src/features/sync/held/approve-held-plan.js";
import { describe, expect } from "vitest";
import type { SimCatalog } from "../../../../sim/catalog/catalog-file.js";
import { exitCodeOf } from "../../../../src/features/sync/sync-report.js";
import { namesOf, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { test } from "../../../support/fixtures.js";

function colorOptions(h: SyncHarness) {
  const options = h.pim.state.attribute_options["color"];
  if (!options) throw new Error("the sample catalogue has no color options");
  return options;
}

function collectionId(h: SyncHarness, name: string): number {
  const found = h.service.collections().find((c) => c.name === name && c.project === 67);
  if (!found) throw new Error(`no collection ${name}`);
  return found.id;
}

function withManyColors(count: number) {
  return (catalog: SimCatalog): void => {
    const options = catalog.pim.attribute_options["color"] ?? [];
    for (let i = 0; i < count; i += 1) options.push({ code: `extra_${i}`, sort_order: 100 + i, labels: { en_US: `Extra ${i}` } });
    catalog.pim.attribute_options["color"] = options;
  };
}

describe("later syncs send only the differences", () => {
  let h: SyncHarness;

  test("sends new, relabelled and removed options of a changed collection in one call", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    await h.sync();
    const options = colorOptions(h);
    options.push({ code: "purple", sort_order: 9, labels: { en_US: "Purple" } });
    const red = options.find((o) => o.code === "red");
    if (!red) throw new Error("no red");
    red.labels = { ...red.labels, en_US: "Scarlet" };
    options.splice(
      options.findIndex((o) => o.code === "white"),
      1,
    );
    const writesBefore = h.service.writes()[collectionId(h, "color")]?.length ?? 0;

    const report = await h.sync();

    const color = report.collections.find((c) => c.collection === "color");
    expect(color).toMatchObject({ action: "update", upserts: 2, deletes: 1, written: true });
    const colorWrites = h.service.writes()[collectionId(h, "color")] ?? [];
    expect(colorWrites).toHaveLength(writesBefore + 1);
    expect(colorWrites.at(-1)?.body).toEqual({
      upsert_options: [
        { name: "purple", label: { "en-US": "Purple" } },
        { name: "red", label: { "de-DE": "Rot", "en-US": "Scarlet", "fr-FR": "Rouge" } },
      ],
      delete_options: ["white"],
      delete_all: false,
    });
    expect(report.collections.filter((c) => c.collection !== "color").every((c) => c.action === "none")).toBe(true);
    expect(namesOf(h.optionsOf("color"))).toEqual(["black", "blue", "green", "purple", "red"]);

    const third = await h.sync();
    expect(third.collections.every((c) => c.action === "none")).toBe(true);
  });

  test("holds back a mass deletion (exit 3) until an admin approves it", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness({ editCatalog: withManyColors(40) }));
    await h.sync();
    const options = colorOptions(h);
    options.splice(0, options.length, ...options.filter((o) => !o.code.startsWith("extra_1")));
    // 11 of the 45 options go (extra_1, extra_10..extra_19): at least 10, but not half.
    const small = await h.sync();
    expect(small.collections.find((c) => c.collection === "color")).toMatchObject({ deletes: 11, heldBack: null });

    options.splice(0, options.length, ...options.filter((o) => !o.code.startsWith("extra_")));
    const held = await h.sync();

    const color = held.collections.find((c) => c.collection === "color");
    // The 29 extras left of 34 options: more than half.
    expect(color?.heldBack?.names).toHaveLength(29);
    expect(color?.deletes).toBe(0);
    expect(exitCodeOf(held)).toBe(3);
    expect(h.optionsOf("color").filter((o) => o.name.startsWith("extra_"))).toHaveLength(29);

    // Held, they wait for an admin: --allow-mass-delete (a trigger token can ask for it) does not pass a review.
    const forced = await h.sync({ allowMassDelete: true });
    expect(forced.collections.find((c) => c.collection === "color")).toMatchObject({ deletes: 0, heldBack: { names: expect.any(Array) } });
    expect(h.optionsOf("color").filter((o) => o.name.startsWith("extra_"))).toHaveLength(29);
    const [plan] = await h.held.list(67);
    expect(await approveHeldPlan(h.held, 67, plan?.id ?? "?", "ada")).toMatchObject({ approved: { id: plan?.id } });
    const approved = await h.sync();
    expect(approved.collections.find((c) => c.collection === "color")).toMatchObject({ deletes: 29, heldBack: null, written: true });
    expect(namesOf(h.optionsOf("color"))).toEqual(["black", "blue", "green", "red", "white"]);
    expect(exitCodeOf(approved)).toBe(0);
    expect(await h.held.list(67)).toEqual([]);
  });

  test("--allow-mass-delete lets a mass deletion through when no plan holds it yet", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness({ editCatalog: withManyColors(40) }));
    await h.sync();
    const options = colorOptions(h);
    options.splice(0, options.length, ...options.filter((o) => !o.code.startsWith("extra_")));
    const allowed = await h.sync({ allowMassDelete: true });
    expect(allowed.collections.find((c) => c.collection === "color")).toMatchObject({ deletes: 40, heldBack: null, written: true });
    expect(namesOf(h.optionsOf("color"))).toEqual(["black", "blue", "green", "red", "white"]);
    expect(exitCodeOf(allowed)).toBe(0);
  });

  test("holds back deletions that follow an empty option list, whatever their number", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    await h.sync();
    h.pim.state.attribute_options["season"] = [];

    const report = await h.sync();

    const season = report.collections.find((c) => c.collection === "season-ecommerce");
    expect(season?.heldBack?.reason).toMatch(/no option/);
    expect(h.optionsOf("season-ecommerce").length).toBe(3);
    expect(exitCodeOf(report)).toBe(3);
  });

  test("under --full with a tripped guard, rewrites every option but deletes none", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness({ editCatalog: withManyColors(20) }));
    await h.sync();
    const options = colorOptions(h);
    options.splice(0, options.length, ...options.filter((o) => !o.code.startsWith("extra_")));

    const report = await h.sync({ full: true });

    const color = report.collections.find((c) => c.collection === "color");
    expect(color).toMatchObject({ action: "update", reason: "full", upserts: 5, deletes: 0 });
    expect(color?.heldBack?.names).toHaveLength(20);
    const last = h.service.writes()[collectionId(h, "color")]?.at(-1);
    expect(last?.body).toMatchObject({ delete_all: false, delete_options: [] });
  });
});
