/**
 * A PIM may leave out every property Akeneo's API description makes optional (the simulator's
 * sparse mode, sim/pim/resource-forms.ts): a sync must write exactly what it writes against
 * a PIM that sends them all.
 */
import { describe, expect } from "vitest";
import type { SyncTargets } from "../../../../src/core/domain/sync-targets.js";
import type { SyncReport } from "../../../../src/features/sync/sync-report.js";
import { PROJECT, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { test } from "../../../support/fixtures.js";

/** The project's collections in the service simulator, options and labels included. */
function projectCollections(h: SyncHarness): { name: string; options: { name: string; label: Record<string, string> }[] }[] {
  return h.service
    .collections()
    .filter((collection) => collection.project === PROJECT)
    .map((collection) => ({ name: collection.name, options: h.optionsOf(collection.name) }))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/** What a run did, without its timings and request counts. */
function outcome(report: SyncReport): Pick<SyncReport, "collections" | "missing" | "unsupported" | "failures"> {
  return { collections: report.collections, missing: report.missing, unsupported: report.unsupported, failures: report.failures };
}

/** The same PIM change in both simulators: a new option, a relabelled record, a new option of a localizable, scopable attribute. */
function changeCatalogue(h: SyncHarness): void {
  h.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 60, labels: { en_US: "Teal", fr_FR: "Sarcelle" } });
  h.pim.state.attribute_options["size_eu"]?.push({ code: "size_50", sort_order: 50, labels: { en_US: "50", fr_FR: "50" } });
  const kartell = h.pim.state.reference_entity_records["brands"]?.find((record) => record.code === "kartell");
  if (kartell === undefined) throw new Error("the sample catalogue has no brands/kartell record");
  kartell.values["label"] = [
    { locale: "en_US", channel: null, data: "Kartell S.p.A." },
    { locale: "fr_FR", channel: null, data: "Kartell" },
  ];
}

async function tokenAnswerKeys(h: SyncHarness): Promise<string[]> {
  const response = await fetch(`${h.pim.url}/api/oauth/v1/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("sim-client:sim-secret").toString("base64")}`, "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", username: "sim-user", password: "sim-password" }),
  });
  return Object.keys((await response.json()) as object).sort();
}

describe("a PIM that sends only what Akeneo's API description requires", () => {
  let full: SyncHarness;
  let sparse: SyncHarness;
  test.beforeEach(async ({ closeAfter }) => {
    full = closeAfter(await startSyncHarness());
    sparse = closeAfter(await startSyncHarness({ pim: { shape: "sparse" } }));
  });

  test("a full sync writes the same collections, options and labels as against a PIM that sends everything", async () => {
    const [fullReport, sparseReport] = [await full.sync(), await sparse.sync()];

    expect(sparseReport.failures).toEqual([]);
    expect(outcome(sparseReport)).toEqual(outcome(fullReport));
    expect(projectCollections(sparse)).toEqual(projectCollections(full));
    expect(projectCollections(full).some((collection) => collection.options.length > 0)).toBe(true);
    // Not two equal PIMs: the sparse one's answers leave out what the full one sends.
    expect(await tokenAnswerKeys(sparse)).toEqual(["access_token"]);
    expect(await tokenAnswerKeys(full)).toContain("refresh_token");
  });

  test("a targeted sync (attributes, options, records) writes the same as against a PIM that sends everything", async () => {
    await full.sync();
    await sparse.sync();
    changeCatalogue(full);
    changeCatalogue(sparse);
    const targets: SyncTargets = {
      attributes: ["size_eu"],
      referenceEntities: ["brands"],
      options: [{ attribute: "color", codes: ["teal"] }],
    };

    const [fullReport, sparseReport] = [await full.sync({ targets }), await sparse.sync({ targets })];

    expect(sparseReport.failures).toEqual([]);
    expect(outcome(sparseReport)).toEqual(outcome(fullReport));
    expect(sparseReport.collections.map((collection) => collection.collection)).toEqual(
      expect.arrayContaining(["color", "brand", "size_eu-fr_FR-mobile"]),
    );
    expect(sparseReport.collections.every((collection) => collection.written || collection.action === "none")).toBe(true);
    expect(projectCollections(sparse)).toEqual(projectCollections(full));
    expect(sparse.optionsOf("color").map((option) => option.name)).toContain("teal");
  });
});
