import { z } from "zod";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ServiceLabels, ServiceOption } from "../../core/domain/option-collection.js";
import { parseAddition, parseLabels } from "./labels-codec.js";
import type { StateStore } from "./state-store.js";
import { readJsonFile } from "./read-json-file.js";

const deletedRecordsSchema = z.array(z.tuple([z.number(), z.int().nonnegative()]));
/** Each entry is checked apart (parseAddition), naming the option of a bad one. */
const additionPairsSchema = z.array(z.unknown(), { error: "expected [name, time] pairs" });
/** The object as JSON.parse made it (a copy would turn an option named `__proto__` into a prototype); each option's labels are checked apart (parseLabels). */
const stateObjectSchema = z.custom<Readonly<Record<string, unknown>>>(
  (value) => value !== null && typeof value === "object" && !Array.isArray(value),
  { error: "expected an object" },
);

/**
 * For `--once` without Redis: one JSON file per collection under
 * `{stateDir}/project-{id}/`, written to a temporary file and renamed so a crash never leaves a
 * half-written baseline.
 */
/** `now`: the file store's clock (one process: its own), for the guard's window; injectable in tests. */
export function createFileStateStore(stateDir: string, options: { readonly now?: () => number } = {}): StateStore {
  const now = options.now ?? Date.now;
  const fileOf = (project: number, collection: string): string =>
    join(stateDir, `project-${project}`, `${encodeURIComponent(collection)}.json`);

  // A folder of its own, so no collection name can collide with an additions file.
  const addedFileOf = (project: number, collection: string): string =>
    join(stateDir, `project-${project}`, "added", `${encodeURIComponent(collection)}.json`);

  async function readAdded(project: number, collection: string): Promise<Map<string, { at: number; label: ServiceLabels }>> {
    const path = addedFileOf(project, collection);
    const raw = await readJsonFile(path, additionPairsSchema, "additions file", []);
    const added = new Map<string, { at: number; label: ServiceLabels }>();
    for (const entry of raw) {
      if (Array.isArray(entry) && typeof entry[0] === "string") added.set(entry[0], parseAddition(entry[1], `${path}#${entry[0]}`));
    }
    return added;
  }

  const deletedFileOf = (project: number, collection: string): string =>
    join(stateDir, `project-${project}`, "deleted", `${encodeURIComponent(collection)}.json`);

  /** [atMs, count] pairs, oldest first. */
  const readDeleted = (project: number, collection: string): Promise<[number, number][]> =>
    readJsonFile(deletedFileOf(project, collection), deletedRecordsSchema, "deletions file", []);

  async function writeAtomically(path: string, text: string): Promise<void> {
    await mkdir(join(path, ".."), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  }

  async function writeAdded(
    project: number,
    collection: string,
    added: ReadonlyMap<string, { at: number; label: ServiceLabels }>,
  ): Promise<void> {
    const path = addedFileOf(project, collection);
    if (added.size === 0) await rm(path, { force: true });
    // Pairs, not an object: option codes such as `__proto__` are valid.
    else await writeAtomically(path, JSON.stringify([...added]));
  }

  async function readMap(project: number, collection: string): Promise<Map<string, ServiceLabels> | null> {
    const path = fileOf(project, collection);
    const raw = await readJsonFile(path, stateObjectSchema, "state file", null);
    if (raw === null) return null;
    const out = new Map<string, ServiceLabels>();
    for (const [name, labels] of Object.entries(raw)) out.set(name, parseLabels(labels, `${path}#${name}`));
    return out;
  }

  async function writeMap(project: number, collection: string, options: ReadonlyMap<string, ServiceLabels>): Promise<void> {
    await writeAtomically(fileOf(project, collection), JSON.stringify(Object.fromEntries(options)));
  }

  return {
    read: readMap,
    async readSome(project, collection, wanted) {
      // One file holds the whole state: nothing to save by reading less of it.
      const all = await readMap(project, collection);
      if (all === null) return null;
      return { entries: new Map([...all].filter(([name]) => wanted(name))), size: all.size };
    },
    async replace(project, collection, options) {
      await writeMap(project, collection, new Map(options.map((option: ServiceOption) => [option.name, option.label])));
    },
    async update(project, collection, upserts, deletes) {
      const current = (await readMap(project, collection)) ?? new Map<string, ServiceLabels>();
      for (const name of deletes) current.delete(name);
      for (const option of upserts) current.set(option.name, option.label);
      await writeMap(project, collection, current);
    },
    async recordAdded(project, collection, options, atMs) {
      if (options.length === 0) return;
      const added = await readAdded(project, collection);
      for (const option of options) added.set(option.name, { at: atMs, label: option.label });
      await writeAdded(project, collection, added);
    },
    async recentlyAdded(project, collection, sinceMs) {
      const added = await readAdded(project, collection);
      const recent = new Map<string, { at: number; label: ServiceLabels }>([...added].filter(([, addition]) => addition.at >= sinceMs));
      if (recent.size < added.size) await writeAdded(project, collection, recent);
      return new Map([...recent].map(([name, addition]) => [name, addition.label]));
    },
    async deletedWithin(project, collection, windowMs) {
      const sinceMs = now() - windowMs;
      const records = await readDeleted(project, collection);
      const recent = records.filter(([at]) => at >= sinceMs);
      if (recent.length < records.length) await writeAtomically(deletedFileOf(project, collection), JSON.stringify(recent));
      return recent.reduce((sum, [, count]) => sum + count, 0);
    },
    async recordDeleted(project, collection, count) {
      if (count <= 0) return;
      const records = await readDeleted(project, collection);
      await writeAtomically(deletedFileOf(project, collection), JSON.stringify([...records, [now(), count]]));
    },
    async forgetDeleted(project, collection) {
      await rm(deletedFileOf(project, collection), { force: true });
    },
    async forget(project, collection) {
      await rm(fileOf(project, collection), { force: true });
    },
    async close() {},
  };
}
