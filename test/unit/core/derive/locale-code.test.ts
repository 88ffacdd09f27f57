import { describe, expect, it } from "vitest";
import { pimLocaleToServiceLocale, serviceLocaleToPimLocale } from "../../../../src/core/derive/locale-code.js";

describe("pimLocaleToServiceLocale", () => {
  it.each([
    ["en_US", "en-US"],
    ["fr_FR", "fr-FR"],
    ["en-US", "en-US"],
    ["EN_us", "en-US"],
    ["en", "en"],
    ["EN", "en"],
    ["zh_Hant_TW", "zh-Hant-TW"],
    ["zh_hant_tw", "zh-Hant-TW"],
    ["ZH_HANT_TW", "zh-Hant-TW"],
    ["sr_Latn", "sr-Latn"],
    ["es_419", "es-419"],
    ["ca_ES_valencia", "ca-ES-valencia"],
    ["ca_ES_VALENCIA", "ca-ES-valencia"],
    ["de_DE_1996", "de-DE-1996"],
    ["fil_PH", "fil-PH"],
    ["en_US-x", "en-US-x"],
  ])("%j → %j", (pim, service) => {
    expect(pimLocaleToServiceLocale(pim)).toBe(service);
  });
});

describe("serviceLocaleToPimLocale", () => {
  it.each([
    ["en-US", "en_US"],
    ["en_us", "en_US"],
    ["en-us", "en_US"],
    ["EN-US", "en_US"],
    ["en_US", "en_US"],
    ["de", "de"],
    ["zh-Hant-TW", "zh_Hant_TW"],
    ["zh-hant-tw", "zh_Hant_TW"],
    ["es-419", "es_419"],
    ["ca-es-Valencia", "ca_ES_valencia"],
  ])("%j → %j", (service, pim) => {
    expect(serviceLocaleToPimLocale(service)).toBe(pim);
  });

  it.each(["en_US", "zh_Hant_TW", "es_419", "fr_FR"])("round-trips %j", (pim) => {
    expect(serviceLocaleToPimLocale(pimLocaleToServiceLocale(pim))).toBe(pim);
  });
});

describe.each([
  ["pimLocaleToServiceLocale", pimLocaleToServiceLocale],
  ["serviceLocaleToPimLocale", serviceLocaleToPimLocale],
] as const)("%s rejects bad codes", (_name, convert) => {
  it("rejects an empty code", () => {
    expect(() => convert("")).toThrow(/Invalid locale code ''.*empty/);
  });

  it.each(["en__US", "_en", "en_", "en-", "-", "_", "en-_US"])("rejects %j for its empty subtag", (code) => {
    expect(() => convert(code)).toThrow(`Invalid locale code '${code}': it has an empty subtag`);
  });

  it.each(["en US", " en_US", "en_US ", "en.US", "en/US", "en_ÜS", "en\nUS", "en@US"])("rejects %j for its characters", (code) => {
    expect(() => convert(code)).toThrow(`Invalid locale code '${code}'`);
    expect(() => convert(code)).toThrow(/only letters, digits/);
  });
});
