import { describe, expect, it } from "vitest";
import type { ProjectFilters } from "../../../../src/core/derive/project-scope.js";
import { resolveProjectScope } from "../../../../src/core/derive/project-scope.js";
import { catalog, channel, currencies, locales } from "./catalog-builder.js";

const ecommerce = channel("ecommerce", ["en_US", "fr_FR"], ["EUR", "USD"]);
const print = channel("print", ["de_DE"], ["EUR", "CHF"]);
const mobile = channel("mobile", ["en_US"], ["GBP"]);

const structure = catalog({
  channels: [print, ecommerce, mobile],
  locales: locales(["fr_FR", "en_US", "de_DE"], ["es_ES"]),
  currencies: currencies(["USD", "EUR", "CHF"], ["GBP"]),
});

function resolve(filters: ProjectFilters) {
  return resolveProjectScope(structure, filters);
}

describe("resolveProjectScope: channels", () => {
  it.each<[string, ProjectFilters]>([
    ["no filter", {}],
    ["undefined filter", { channels: undefined }],
    ["empty filter", { channels: [] }],
  ])("%s selects every channel, sorted by code", (_case, filters) => {
    const { scope, problems } = resolve(filters);
    expect(scope.channels.map((c) => c.code)).toEqual(["ecommerce", "mobile", "print"]);
    expect(problems).toEqual([]);
  });

  it("keeps the filter's order and the channel objects themselves", () => {
    const { scope, problems } = resolve({ channels: ["print", "ecommerce"] });
    expect(scope.channels).toEqual([print, ecommerce]);
    expect(scope.channels[0]).toBe(print);
    expect(problems).toEqual([]);
  });

  it("matches channel codes case-insensitively and keeps the PIM's spelling", () => {
    const { scope, problems } = resolve({ channels: ["ECommerce"] });
    expect(scope.channels.map((c) => c.code)).toEqual(["ecommerce"]);
    expect(problems).toEqual([]);
  });

  it("selects a channel named twice once", () => {
    const { scope } = resolve({ channels: ["print", "PRINT", "print"] });
    expect(scope.channels.map((c) => c.code)).toEqual(["print"]);
  });

  it("reports each unknown channel and keeps the known ones", () => {
    const { scope, problems } = resolve({ channels: ["web", "print", "shop"] });
    expect(scope.channels.map((c) => c.code)).toEqual(["print"]);
    expect(problems).toEqual(["channels filter names unknown channel 'web'", "channels filter names unknown channel 'shop'"]);
  });

  it("selects nothing when the PIM has no channels", () => {
    const { scope, problems } = resolveProjectScope(catalog(), {});
    expect(scope).toEqual({ channels: [], locales: [], currencies: [] });
    expect(problems).toEqual([]);
  });

  it("ignores a second channel with the same code", () => {
    const duplicate = channel("ECOMMERCE", ["de_DE"]);
    const { scope } = resolveProjectScope(catalog({ channels: [ecommerce, duplicate] }), {});
    expect(scope.channels).toEqual([ecommerce]);
  });
});

describe("resolveProjectScope: locales", () => {
  it.each<[string, ProjectFilters]>([
    ["no filter", {}],
    ["empty filter", { locales: [] }],
  ])("%s selects every enabled locale, sorted", (_case, filters) => {
    const { scope, problems } = resolve(filters);
    expect(scope.locales).toEqual(["de_DE", "en_US", "fr_FR"]);
    expect(problems).toEqual([]);
  });

  it.each<[string, string[], string[]]>([
    ["PIM codes", ["fr_FR", "en_US"], ["en_US", "fr_FR"]],
    ["service codes", ["fr-FR", "en-US"], ["en_US", "fr_FR"]],
    ["mixed case", ["EN-us", "fr_fr"], ["en_US", "fr_FR"]],
    ["the same locale twice", ["en_US", "en-US"], ["en_US"]],
  ])("accepts %s", (_case, filter, expected) => {
    const { scope, problems } = resolve({ locales: filter });
    expect(scope.locales).toEqual(expected);
    expect(problems).toEqual([]);
  });

  it("reports a disabled locale", () => {
    const { scope, problems } = resolve({ locales: ["es_ES", "en_US"] });
    expect(scope.locales).toEqual(["en_US"]);
    expect(problems).toEqual(["locales filter names locale 'es_ES' which is not enabled in the PIM"]);
  });

  it("reports an unknown locale as given", () => {
    const { scope, problems } = resolve({ locales: ["it-IT"] });
    expect(scope.locales).toEqual([]);
    expect(problems).toEqual(["locales filter names locale 'it-IT' which is not enabled in the PIM"]);
  });

  it.each(["", "en US", "en__US"])("reports the malformed filter value %j", (value) => {
    const { scope, problems } = resolve({ locales: [value, "de_DE"] });
    expect(scope.locales).toEqual(["de_DE"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`locales filter value '${value}' is not a locale code`);
  });

  it("leaves out, and reports, an enabled PIM locale the service cannot represent", () => {
    const { scope, problems } = resolveProjectScope(catalog({ locales: locales(["en_US", "en US"]) }), {});
    expect(scope.locales).toEqual(["en_US"]);
    expect(problems).toEqual([expect.stringContaining("PIM locale 'en US' is left out")]);
  });

  it("does not check disabled PIM locales", () => {
    const { problems } = resolveProjectScope(catalog({ locales: locales(["en_US"], ["bad code"]) }), {});
    expect(problems).toEqual([]);
  });

  it("is not limited by the selected channels' locales", () => {
    const { scope } = resolve({ channels: ["print"] });
    expect(scope.locales).toEqual(["de_DE", "en_US", "fr_FR"]);
  });
});

describe("resolveProjectScope: currencies", () => {
  it("unites the channels' enabled currencies, sorted", () => {
    expect(resolve({}).scope.currencies).toEqual(["CHF", "EUR", "USD"]);
  });

  it("follows the channel filter", () => {
    expect(resolve({ channels: ["ecommerce"] }).scope.currencies).toEqual(["EUR", "USD"]);
  });

  it("leaves out disabled currencies", () => {
    expect(resolve({ channels: ["mobile"] }).scope.currencies).toEqual([]);
  });

  it("leaves out currencies the PIM does not list", () => {
    const structureWithUnknown = catalog({
      channels: [channel("web", ["en_US"], ["EUR", "XXX"])],
      currencies: currencies(["EUR"]),
    });
    expect(resolveProjectScope(structureWithUnknown, {}).scope.currencies).toEqual(["EUR"]);
  });

  it("matches currency codes case-insensitively and keeps the PIM's spelling", () => {
    const structureWithCase = catalog({
      channels: [channel("web", ["en_US"], ["eur"])],
      currencies: currencies(["EUR"]),
    });
    expect(resolveProjectScope(structureWithCase, {}).scope.currencies).toEqual(["EUR"]);
  });

  it("is empty when every named channel is unknown", () => {
    const { scope } = resolve({ channels: ["nowhere"] });
    expect(scope.channels).toEqual([]);
    expect(scope.currencies).toEqual([]);
  });
});

describe("resolveProjectScope: problems", () => {
  it("reports channel problems before locale problems", () => {
    const { problems } = resolve({ channels: ["web"], locales: ["xx"] });
    expect(problems).toEqual([
      "channels filter names unknown channel 'web'",
      "locales filter names locale 'xx' which is not enabled in the PIM",
    ]);
  });
});
