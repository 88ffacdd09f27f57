import type { z } from "zod";
import type { AnyJobDefinition, JobQueueKind } from "./define-job.js";
import { UnknownJobName } from "./unknown-job-name.js";

/**
 * A catalog to run: the entries looked up by name. The worker runs the one list of job-catalog.ts;
 * a test may run that list with an entry of its own (nothing else needs to know of it).
 */
export interface JobCatalog<D extends AnyJobDefinition = AnyJobDefinition> {
  /** Typed by its entries, so that what queues a job of the catalog knows their names and data. */
  readonly definitions: readonly D[];
  /** The entry of `name`; UnknownJobName when there is none, or when it does not run on `queue`. */
  entry(name: string, queue?: JobQueueKind): AnyJobDefinition;
  has(name: string): boolean;
}

/** The names of the entries `D` that run on queue `Q`. */
export type QueueJobName<D extends AnyJobDefinition, Q extends JobQueueKind> = Extract<D, { readonly queue: Q }>["name"];

/** What an entry of `D` named `N` accepts as data when queued (its schema's input: defaults may be left out). */
export type JobInputOf<D extends AnyJobDefinition, N extends string> = z.input<Extract<D, { readonly name: N }>["schema"]>;

export function jobCatalogOf<D extends AnyJobDefinition>(definitions: readonly D[]): JobCatalog<D> {
  const byName = new Map<string, AnyJobDefinition>();
  for (const definition of definitions) {
    if (byName.has(definition.name)) throw new Error(`the job catalog lists '${definition.name}' twice`);
    byName.set(definition.name, definition);
  }
  return {
    definitions,
    entry(name, queue) {
      const found = byName.get(name);
      if (found === undefined || (queue !== undefined && found.queue !== queue)) throw new UnknownJobName(name, queue);
      return found;
    },
    has: (name) => byName.has(name),
  };
}
