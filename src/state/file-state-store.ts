import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ServiceLabels, ServiceOption } from "../domain/option-collection.js";
import { parseLabels } from "./labels-codec.js";
import type { StateStore } from "./state-store.js";

/**
 * For `--once` without Redis: one JSON file per collection under
 * `{stateDir}/project-{id}/`, written to a temporary file and renamed so a crash never leaves a
 * half-written baseline.
 */
export function createFileStateStore(stateDir: string): StateStore {
  const fileOf = (project: number, collection: string): string =>
    join(stateDir, `project-${project}`, `${encodeURIComponent(collection)}.json`);

  const addedFileOf = (project: number, collection: string): string =>
    join(stateDir, `project-${project}`, `${encodeURIComponent(collection)}.added.json`);

  async function readAdded(project: number, collection: string): Promise<Record<string, number>> {
    try {
      const raw: unknown = JSON.parse(await readFile(addedFileOf(project, collection), "utf8"));
      if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
      return Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  }

  async function writeAtomically(path: string, text: string): Promise<void> {
    await mkdir(join(path, ".."), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  }

  async function readMap(project: number, collection: string): Promise<Map<string, ServiceLabels> | null> {
    const path = fileOf(project, collection);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`corrupt state file ${path}: not JSON`);
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`corrupt state file ${path}: expected an object`);
    const out = new Map<string, ServiceLabels>();
    for (const [name, labels] of Object.entries(raw)) out.set(name, parseLabels(labels, `${path}#${name}`));
    return out;
  }

  async function writeMap(project: number, collection: string, options: ReadonlyMap<string, ServiceLabels>): Promise<void> {
    await writeAtomically(fileOf(project, collection), JSON.stringify(Object.fromEntries(options)));
  }

  return {
    read: readMap,
    async replace(project, collection, options) {
      await writeMap(project, collection, new Map(options.map((option: ServiceOption) => [option.name, option.label])));
    },
    async update(project, collection, upserts, deletes) {
      const current = (await readMap(project, collection)) ?? new Map<string, ServiceLabels>();
      for (const name of deletes) current.delete(name);
      for (const option of upserts) current.set(option.name, option.label);
      await writeMap(project, collection, current);
    },
    async recordAdded(project, collection, names, atMs) {
      if (names.length === 0) return;
      const added = await readAdded(project, collection);
      for (const name of names) added[name] = atMs;
      await writeAtomically(addedFileOf(project, collection), JSON.stringify(added));
    },
    async recentlyAdded(project, collection, sinceMs) {
      const added = await readAdded(project, collection);
      return new Set(Object.entries(added).filter(([, at]) => at >= sinceMs).map(([name]) => name));
    },
    async forget(project, collection) {
      await rm(fileOf(project, collection), { force: true });
    },
    async close() {},
  };
}
