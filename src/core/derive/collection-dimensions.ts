import type { PimAttribute } from "../domain/pim-catalog.js";
import { codeKey } from "./code-key.js";
import type { NamingTemplates } from "./naming.js";
import type { ProjectScope } from "./project-scope.js";

/** One (locale, channel) slot of an attribute's values, each of which gets its own collection. */
export interface CollectionDimension {
  readonly template: keyof Pick<NamingTemplates, "select" | "localizable" | "scopable" | "localizableScopable">;
  readonly locale: string | null;
  readonly channel: string | null;
}

/**
 * The connector makes one select field, hence one collection, per value the PIM can hold for the
 * attribute: per locale if localizable, per channel if scopable, per pair if both. A pair only
 * exists where the channel has the locale, and a locale-specific attribute only has values in its
 * available locales.
 */
export function collectionDimensions(attribute: PimAttribute, scope: ProjectScope): CollectionDimension[] {
  const { localizable, scopable } = attribute;
  if (!localizable && !scopable) {
    return [{ template: "select", locale: null, channel: null }];
  }
  if (!localizable) {
    return scope.channels.map((channel) => ({ template: "scopable", locale: null, channel: channel.code }));
  }
  const locales = attributeLocales(attribute, scope.locales);
  if (!scopable) {
    return locales.map((locale) => ({ template: "localizable", locale, channel: null }));
  }
  return scope.channels.flatMap((channel) => {
    const channelLocales = keySet(channel.locales);
    return locales
      .filter((locale) => channelLocales.has(codeKey(locale)))
      .map((locale) => ({ template: "localizableScopable" as const, locale, channel: channel.code }));
  });
}

function attributeLocales(attribute: PimAttribute, projectLocales: readonly string[]): readonly string[] {
  if (attribute.availableLocales.length === 0) return projectLocales;
  const available = keySet(attribute.availableLocales);
  return projectLocales.filter((locale) => available.has(codeKey(locale)));
}

function keySet(codes: readonly string[]): Set<string> {
  return new Set(codes.map(codeKey));
}
