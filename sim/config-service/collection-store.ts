/**
 * The configuration service's option collections, live. Options keep insertion order (a Map):
 * an upsert of an existing option keeps its place, a new one goes last. Accepted write bodies are
 * kept per collection so tests can check exactly what a client sent, in order.
 */
import type { SimCatalog } from "../catalog/catalog-file.js";

export interface CollectionOptionSnapshot {
  readonly name: string;
  readonly label: Readonly<Record<string, string>>;
}

export interface CollectionSnapshot {
  readonly id: number;
  readonly name: string;
  readonly project: number;
  readonly options: readonly CollectionOptionSnapshot[];
}

export interface RecordedWrite {
  readonly kind: "update-options" | "add-options";
  /** The request body as sent (parsed JSON). */
  readonly body: unknown;
  /** Epoch milliseconds. */
  readonly at: number;
  /** Names the write took out of the collection (present before, absent after): what a client lost. */
  readonly removed: readonly string[];
}

/** Called synchronously as each write is accepted, so a test can compare with the PIM at that moment. */
export type WriteListener = (
  collection: { readonly id: number; readonly name: string; readonly project: number },
  write: RecordedWrite,
) => void;

export interface LiveCollection {
  readonly id: number;
  readonly name: string;
  readonly project: number;
  /** name → label */
  readonly options: Map<string, Readonly<Record<string, string>>>;
}

export interface CollectionStore {
  readonly projects: ReadonlySet<number>;
  /** Sorted by id, optionally of one project. */
  list(project?: number): readonly LiveCollection[];
  get(id: number): LiveCollection | undefined;
  recordWrite(id: number, kind: RecordedWrite["kind"], body: unknown, removed: readonly string[]): void;
  /** Returns the function that stops the listener. */
  onWrite(listener: WriteListener): () => void;
  snapshot(): CollectionSnapshot[];
  writes(): Record<number, RecordedWrite[]>;
}

export function createCollectionStore(catalog: SimCatalog["service"]): CollectionStore {
  const collections = new Map<number, LiveCollection>();
  for (const collection of [...catalog.collections].sort((left, right) => left.id - right.id)) {
    collections.set(collection.id, {
      id: collection.id,
      name: collection.name,
      project: collection.project,
      options: new Map(collection.options.map((option) => [option.name, { ...option.label }])),
    });
  }
  const writes = new Map<number, RecordedWrite[]>();
  const listeners = new Set<WriteListener>();
  return {
    projects: new Set(catalog.projects),
    list: (project) => [...collections.values()].filter((collection) => project === undefined || collection.project === project),
    get: (id) => collections.get(id),
    recordWrite(id, kind, body, removed) {
      const list = writes.get(id) ?? [];
      const write: RecordedWrite = { kind, body: structuredClone(body), at: Date.now(), removed: [...removed] };
      list.push(write);
      writes.set(id, list);
      const collection = collections.get(id);
      if (collection === undefined) return;
      for (const listener of listeners) listener({ id, name: collection.name, project: collection.project }, structuredClone(write));
    },
    onWrite(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    snapshot: () =>
      [...collections.values()].map((collection) => ({
        id: collection.id,
        name: collection.name,
        project: collection.project,
        options: [...collection.options].map(([name, label]) => ({ name, label: { ...label } })),
      })),
    writes: () => Object.fromEntries([...writes].map(([id, list]) => [id, structuredClone(list)])),
  };
}
