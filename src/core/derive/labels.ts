import type { PimLabels } from "../domain/pim-catalog.js";
import type { ServiceLabels } from "../domain/option-collection.js";
import { compareCodes } from "./compare-codes.js";
import { pimLocaleToServiceLocale } from "./locale-code.js";

/**
 * The PIM marks "no label" with null, "" or (through careless edits) blanks; the service wants
 * only real text. Locales outside the project are dropped so that a label added in an unused
 * locale does not show up as a change. Text is kept verbatim: trimming would make every later
 * comparison against the PIM differ.
 */
export function toServiceLabels(labels: PimLabels, projectLocales: ReadonlySet<string>): ServiceLabels {
  const entries: [string, string][] = [];
  const taken = new Set<string>();
  // Visiting PIM keys in a fixed order makes the winner deterministic if two of them canonicalise
  // to the same service key.
  for (const pimLocale of Object.keys(labels).sort(compareCodes)) {
    const text = labels[pimLocale];
    if (!projectLocales.has(pimLocale) || !hasText(text)) continue;
    const serviceLocale = pimLocaleToServiceLocale(pimLocale);
    if (taken.has(serviceLocale)) continue;
    taken.add(serviceLocale);
    entries.push([serviceLocale, text]);
  }
  entries.sort(([a], [b]) => compareCodes(a, b));
  return Object.fromEntries(entries);
}

/** Key order carries no meaning for the service, so it must not count as a difference. */
export function serviceLabelsEqual(a: ServiceLabels, b: ServiceLabels): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

function hasText(text: string | null | undefined): text is string {
  return typeof text === "string" && text.trim() !== "";
}
