import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { loadSimCatalog, parseSimCatalog, SimCatalogError } from "../../../sim/catalog/catalog-file.js";
import { sampleCatalog } from "./sim-test-helpers.js";

describe("simulator catalogue", () => {
  it("parses the sample catalogue with Akeneo's defaults filled in", async () => {
    const catalog = await sampleCatalog();
    const sku = catalog.pim.attributes.find((attribute) => attribute.code === "sku");
    expect(sku).toMatchObject({ type: "pim_catalog_identifier", metric_family: null, available_locales: [], sort_order: 1 });
    expect(catalog.pim.locales.filter((locale) => !locale.enabled).map((locale) => locale.code)).toEqual(["es_ES"]);
    expect(catalog.pim.attribute_options["color"]?.map((option) => option.labels["fr_FR"])).toContain(null);
    expect(catalog.pim.attribute_options["color"]?.map((option) => option.labels["fr_FR"])).toContain("");
    expect(catalog.pim.reference_entity_records["brands"]).toHaveLength(6);
    expect(catalog.pim.reference_entity_records["designers"]).toHaveLength(3);
    const project67 = catalog.service.collections.filter((collection) => collection.project === 67).map((collection) => collection.name);
    expect(project67).toContain("size_eu-fr_FR-mobile");
    expect(project67).toContain("manual_list");
    expect(project67).not.toContain("season-mobile");
  });

  it("accepts an empty catalogue and fills every list", () => {
    const catalog = parseSimCatalog({});
    expect(catalog.pim.attributes).toEqual([]);
    expect(catalog.service).toEqual({ projects: [], collections: [] });
  });

  it("rejects an unknown key with its path", () => {
    const broken = {
      pim: {
        attributes: [{ code: "color", type: "pim_catalog_simpleselect", group: "g", localizable: false, scopable: false, colour: "red" }],
      },
    };
    expect(() => parseSimCatalog(broken)).toThrow(SimCatalogError);
    expect(() => parseSimCatalog(broken)).toThrow(/colour[\s\S]*pim\.attributes\[0\]/);
  });

  it("rejects a missing required field with its path", () => {
    const broken = {
      pim: { attributes: [{ code: "name", type: "pim_catalog_text", localizable: false, scopable: false }] },
      service: { projects: [67], collections: [{ id: 1, project: 67 }] },
    };
    let message = "";
    try {
      parseSimCatalog(broken, "broken.json");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("broken.json");
    expect(message).toContain("pim.attributes[0].group");
    expect(message).toContain("service.collections[0].name");
  });

  it("rejects dangling references with their paths", () => {
    const broken = {
      pim: {
        locales: [{ code: "en_US", enabled: true }],
        currencies: [{ code: "EUR", enabled: true }],
        channels: [{ code: "ecommerce", locales: ["en_US", "xx_XX"], currencies: ["EUR"] }],
        attributes: [{ code: "name", type: "pim_catalog_text", group: "general", localizable: false, scopable: false }],
        attribute_options: { name: [{ code: "a" }] },
      },
      service: { projects: [67], collections: [{ id: 1, name: "color", project: 99 }] },
    };
    let message = "";
    try {
      parseSimCatalog(broken);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("pim.channels[0].locales[1]");
    expect(message).toContain("pim.attribute_options.name");
    expect(message).toContain("service.collections[0].project");
  });

  it("names the file when it is not JSON", async () => {
    const folder = await mkdtemp(join(tmpdir(), "sim-catalog-"));
    try {
      const path = join(folder, "catalog.json");
      await writeFile(path, "{ not json");
      await expect(loadSimCatalog(path)).rejects.toThrow(path);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
