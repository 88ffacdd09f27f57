import type { PimCatalogStructure, PimChannel, PimCurrency, PimLocale } from "../domain/pim-catalog.js";
import { codeKey } from "./code-key.js";
import { compareCodes } from "./compare-codes.js";
import { firstByCode } from "./first-by-code.js";
import { pimLocaleToServiceLocale, serviceLocaleToPimLocale } from "./locale-code.js";

/** An absent or empty list means "no restriction", as `available_locales: []` does in the PIM. */
export interface ProjectFilters {
  channels?: readonly string[] | undefined;
  locales?: readonly string[] | undefined;
}

export interface ProjectScope {
  channels: readonly PimChannel[];
  /** Enabled PIM locales ∩ the locales filter: PIM codes (`en_US`), sorted. */
  locales: readonly string[];
  /** The selected channels' currencies ∩ the enabled currencies, sorted. */
  currencies: readonly string[];
}

/**
 * Filters name things by hand, so they are matched case-insensitively and a locale may be given in
 * either convention; the scope itself always carries the PIM's own spelling, which is what label
 * keys and channel locale lists use.
 */
export function resolveProjectScope(structure: PimCatalogStructure, filters: ProjectFilters): { scope: ProjectScope; problems: string[] } {
  const problems: string[] = [];
  const channels = selectChannels(structure.channels, filters.channels, problems);
  const locales = selectLocales(structure.locales, filters.locales, problems);
  const currencies = selectCurrencies(channels, structure.currencies);
  return { scope: { channels, locales, currencies }, problems };
}

function selectChannels(all: readonly PimChannel[], filter: readonly string[] | undefined, problems: string[]): PimChannel[] {
  const channels = firstByCode(all, (channel) => channel.code);
  if (filter === undefined || filter.length === 0) {
    return channels.sort((a, b) => compareCodes(a.code, b.code));
  }
  const byKey = new Map(channels.map((channel) => [codeKey(channel.code), channel]));
  const selected: PimChannel[] = [];
  for (const name of filter) {
    const channel = byKey.get(codeKey(name));
    if (channel === undefined) {
      problems.push(`channels filter names unknown channel '${name}'`);
    } else if (!selected.includes(channel)) {
      selected.push(channel);
    }
  }
  return selected;
}

function selectLocales(all: readonly PimLocale[], filter: readonly string[] | undefined, problems: string[]): string[] {
  const enabled = new Map<string, string>();
  for (const locale of all) {
    if (!locale.enabled || enabled.has(codeKey(locale.code))) continue;
    // A code the service cannot represent would make every label conversion throw later; leaving
    // it out here turns that into one reported problem.
    const conversionError = errorOf(() => pimLocaleToServiceLocale(locale.code));
    if (conversionError !== null) {
      problems.push(`PIM locale '${locale.code}' is left out: ${conversionError}`);
      continue;
    }
    enabled.set(codeKey(locale.code), locale.code);
  }
  if (filter === undefined || filter.length === 0) {
    return [...enabled.values()].sort(compareCodes);
  }
  const selected = new Set<string>();
  for (const value of filter) {
    let pimCode: string;
    try {
      pimCode = serviceLocaleToPimLocale(value);
    } catch (error) {
      problems.push(`locales filter value '${value}' is not a locale code: ${messageOf(error)}`);
      continue;
    }
    const code = enabled.get(codeKey(pimCode));
    if (code === undefined) {
      problems.push(`locales filter names locale '${value}' which is not enabled in the PIM`);
    } else {
      selected.add(code);
    }
  }
  return [...selected].sort(compareCodes);
}

function selectCurrencies(channels: readonly PimChannel[], all: readonly PimCurrency[]): string[] {
  const enabled = new Map<string, string>();
  for (const currency of all) {
    if (currency.enabled && !enabled.has(codeKey(currency.code))) {
      enabled.set(codeKey(currency.code), currency.code);
    }
  }
  const selected = new Set<string>();
  for (const channel of channels) {
    for (const currency of channel.currencies) {
      const code = enabled.get(codeKey(currency));
      if (code !== undefined) selected.add(code);
    }
  }
  return [...selected].sort(compareCodes);
}

function errorOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
