import { describe, expect, it } from "vitest";
import { collectionDimensions } from "../../../../src/core/derive/collection-dimensions.js";
import { attribute, channel, scope } from "./catalog-builder.js";

const web = channel("web", ["en_US", "fr_FR"]);
const shop = channel("shop", ["fr_FR", "de_DE"]);
const project = scope({ channels: [web, shop], locales: ["de_DE", "en_US", "fr_FR"] });

describe("collectionDimensions", () => {
  it.each([
    ["neither", {}, [{ template: "select", locale: null, channel: null }]],
    [
      "localizable",
      { localizable: true },
      [
        { template: "localizable", locale: "de_DE", channel: null },
        { template: "localizable", locale: "en_US", channel: null },
        { template: "localizable", locale: "fr_FR", channel: null },
      ],
    ],
    [
      "localizable, locale-specific",
      { localizable: true, availableLocales: ["fr_FR"] },
      [{ template: "localizable", locale: "fr_FR", channel: null }],
    ],
    [
      "scopable",
      { scopable: true },
      [
        { template: "scopable", locale: null, channel: "web" },
        { template: "scopable", locale: null, channel: "shop" },
      ],
    ],
    [
      "both",
      { localizable: true, scopable: true },
      [
        { template: "localizableScopable", locale: "en_US", channel: "web" },
        { template: "localizableScopable", locale: "fr_FR", channel: "web" },
        { template: "localizableScopable", locale: "de_DE", channel: "shop" },
        { template: "localizableScopable", locale: "fr_FR", channel: "shop" },
      ],
    ],
    [
      "both, locale-specific",
      { localizable: true, scopable: true, availableLocales: ["en_US", "de_DE"] },
      [
        { template: "localizableScopable", locale: "en_US", channel: "web" },
        { template: "localizableScopable", locale: "de_DE", channel: "shop" },
      ],
    ],
    ["localizable, no available locale in the project", { localizable: true, availableLocales: ["it_IT"] }, []],
  ])("%s", (_case, flags, expected) => {
    expect(collectionDimensions(attribute("a", "any", flags), project)).toEqual(expected);
  });

  it("orders locales within a channel by the project's order, not the channel's", () => {
    const reversed = channel("web", ["fr_FR", "en_US"]);
    const dimensions = collectionDimensions(attribute("a", "any", { localizable: true, scopable: true }), {
      ...project,
      channels: [reversed],
    });
    expect(dimensions.map((d) => d.locale)).toEqual(["en_US", "fr_FR"]);
  });

  it("matches channel locales case-insensitively and keeps the project's spelling", () => {
    const shouting = channel("web", ["EN_us"]);
    const dimensions = collectionDimensions(attribute("a", "any", { localizable: true, scopable: true }), {
      ...project,
      channels: [shouting],
    });
    expect(dimensions).toEqual([{ template: "localizableScopable", locale: "en_US", channel: "web" }]);
  });
});
