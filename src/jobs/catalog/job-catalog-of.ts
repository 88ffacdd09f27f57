import type { AnyJobDefinition, JobQueueKind } from "./define-job.js";
import { UnknownJobName } from "./unknown-job-name.js";

/**
 * A catalog to run: the entries looked up by name. The worker runs the one list of job-catalog.ts;
 * a test may run that list with an entry of its own (nothing else needs to know of it).
 */
export interface JobCatalog {
  readonly definitions: readonly AnyJobDefinition[];
  /** The entry of `name`; UnknownJobName when there is none, or when it does not run on `queue`. */
  entry(name: string, queue?: JobQueueKind): AnyJobDefinition;
  has(name: string): boolean;
}

export function jobCatalogOf(definitions: readonly AnyJobDefinition[]): JobCatalog {
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
