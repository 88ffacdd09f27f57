import type { ServiceLabels, ServiceOption } from "../../core/domain/option-collection.js";
import { codeKey } from "../../core/derive/code-key.js";

/**
 * Options of one attribute read one by one (an option-level targeted sync): the ones the PIM
 * serves, as the service's options, and the codes it answered 404 for (its own word that they
 * are gone).
 */
export interface NamedOptions {
  readonly present: readonly ServiceOption[];
  readonly gone: readonly string[];
}

/**
 * The options a collection should hold, from what pim-sync last wrote there and the options read
 * alone: every last-written option, but a named option the PIM serves is replaced by the PIM's
 * (its labels, its spelling of the code) and one the PIM answered 404 for is left out. Planned
 * like a list read whole (planCollection), this gives the same plan the whole list would, were
 * nothing else changed: an upsert for a new or relabelled option, a deletion for a gone one, and
 * the deletion guard, recent add-options and renames exactly as for a full list. An option that
 * is not named is never deleted. Pure.
 */
export function desiredWithNamedOptions(lastWritten: ReadonlyMap<string, ServiceLabels>, named: NamedOptions): ServiceOption[] {
  const replaced = new Set([...named.gone, ...named.present.map((option) => option.name)].map(codeKey));
  const kept: ServiceOption[] = [];
  for (const [name, label] of lastWritten) if (!replaced.has(codeKey(name))) kept.push({ name, label });
  return [...kept, ...named.present];
}
