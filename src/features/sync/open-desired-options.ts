import type { ServiceOption } from "../../core/domain/option-collection.js";
import { codeKey } from "../../core/derive/code-key.js";
import type { PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import { optionTargetsOf, type SyncTargets } from "../../core/domain/sync-targets.js";
import type { ProjectScope } from "../../core/derive/index.js";
import type { SomeLastWritten, StateStore } from "../../stores/state/state-store.js";
import type { SourceGroup } from "./group-specs-by-source.js";
import type { NamedOptions } from "./named-options.js";
import type { PimReader } from "./pim-reader.js";
import { openSourceOptions } from "./read-source-options.js";
import { readNamedOptions } from "./read-named-options.js";
import { readsOptionsAlone } from "./reads-options-alone.js";
import type { SourceSize } from "./reading-order.js";

/**
 * What a source's collections are planned from:
 * - `list`: every option of the source, read whole;
 * - `named`: options read one by one, with the part of each collection's last-written state
 *   (read when the source was opened) that they are planned against: the entries of the named
 *   codes, in every spelling, and the state's size.
 */
export type DesiredOptions =
  | { readonly kind: "list"; readonly options: readonly ServiceOption[] }
  | { readonly kind: "named"; readonly named: NamedOptions; readonly lastWritten: ReadonlyMap<string, SomeLastWritten> };

/** A source ready to be read: what is known of its length, and the read itself (call once). */
export interface OpenedDesired {
  readonly size: SourceSize;
  read(): Promise<DesiredOptions>;
}

/**
 * Opens one source of a sync. An attribute whose options a targeted sync names alone is read
 * option by option, provided every collection of it has a last-written state to plan them
 * against and that costs fewer requests than its list's pages (readsOptionsAlone); a collection
 * without a state (never synced, or its state lost) can only be replaced from the whole list, so
 * the attribute is then read whole, like every other source. Only the named codes' entries of
 * each state are read (with its size, for the guard and for choosing the read): a state may hold
 * tens of thousands of options, and reading it whole for a few of them cost more than the reads.
 * A full sync reads lists: it rewrites whole collections.
 */
export async function openDesiredOptions(args: {
  readonly group: SourceGroup;
  readonly structure: PimCatalogStructure;
  readonly scope: ProjectScope;
  readonly pim: PimReader;
  readonly state: Pick<StateStore, "readSome">;
  readonly project: number;
  readonly targets: SyncTargets | undefined;
  readonly full: boolean;
  readonly signal: AbortSignal;
}): Promise<OpenedDesired> {
  const { group, pim, signal } = args;
  const source = group.source;
  const codes = source.kind === "attribute-options" && args.targets ? optionTargetsOf(args.targets, source.attribute) : undefined;
  if (source.kind === "attribute-options" && codes !== undefined && !args.full) {
    const keys = new Set(codes.map(codeKey));
    const wanted = (name: string): boolean => keys.has(codeKey(name));
    const lastWritten = new Map<string, SomeLastWritten>();
    for (const spec of group.specs) {
      const state = await args.state.readSome(args.project, spec.name, wanted);
      if (state === null) break;
      lastWritten.set(spec.name, state);
    }
    const largest = Math.max(0, ...[...lastWritten.values()].map((state) => state.size));
    if (lastWritten.size === group.specs.length && readsOptionsAlone(codes.length, largest)) {
      return {
        size: { kind: "counted", items: codes.length },
        read: async () => ({
          kind: "named",
          named: await readNamedOptions({ pim, attribute: source.attribute, codes, locales: new Set(args.scope.locales), signal }),
          lastWritten,
        }),
      };
    }
  }
  const opened = await openSourceOptions({ source, structure: args.structure, scope: args.scope, pim, signal });
  return { size: opened.size, read: async () => ({ kind: "list", options: await opened.read() }) };
}
