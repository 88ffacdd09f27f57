/**
 * Watches every write the configuration-service simulator accepts, as it is accepted, and checks
 * it against the PIM simulator's options at that moment: a write that removed an option the PIM
 * still has is a lost option. Writes are tagged with the test's current phase so a test can say
 * which collections a phase was allowed to write.
 */
import type { ConfigServiceSimulator } from "../../../sim/config-service/config-service-simulator.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { pimNamesOf } from "./pim-names.js";

export interface WatchedWrite {
  readonly phase: string;
  readonly collection: string;
  readonly project: number;
  readonly kind: "update-options" | "add-options";
  readonly removed: readonly string[];
}

export interface WriteWatch {
  readonly writes: readonly WatchedWrite[];
  /** "collection: removed 'x' while the PIM had it", one per lost option. */
  readonly lost: readonly string[];
  phase(name: string): void;
  /** Writes of `phase` to collections not in `allowed`. */
  writesOutside(phase: string, allowed: readonly string[]): WatchedWrite[];
  stop(): void;
}

export function watchWrites(service: ConfigServiceSimulator, pim: PimSimulator): WriteWatch {
  const writes: WatchedWrite[] = [];
  const lost: string[] = [];
  let phase = "start";
  const stop = service.onWrite((collection, write) => {
    writes.push({ phase, collection: collection.name, project: collection.project, kind: write.kind, removed: write.removed });
    const inPim = pimNamesOf(pim.state, collection.name);
    if (inPim === undefined) return;
    // A name removed and upserted again in one request under another case is a rename to the
    // PIM's spelling, not a loss: the option is still there.
    const upserted = new Set(upsertNamesOf(write.body).map((name) => name.toLowerCase()));
    for (const name of write.removed) {
      if (inPim.has(name.toLowerCase()) && !upserted.has(name.toLowerCase()))
        lost.push(`${collection.project}/${collection.name}: removed '${name}' while the PIM had it (phase ${phase})`);
    }
  });
  return {
    writes,
    lost,
    phase: (name) => void (phase = name),
    writesOutside: (name, allowed) => writes.filter((write) => write.phase === name && !allowed.includes(write.collection)),
    stop,
  };
}

function upsertNamesOf(body: unknown): string[] {
  if (typeof body !== "object" || body === null || !("upsert_options" in body) || !Array.isArray(body.upsert_options)) return [];
  return body.upsert_options.flatMap((option: unknown) =>
    typeof option === "object" && option !== null && "name" in option && typeof option.name === "string" ? [option.name] : [],
  );
}
