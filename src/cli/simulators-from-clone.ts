import { UsageError } from "./usage-error.js";

/**
 * The simulators are in the repository's `sim/` (built to `dist/sim/`), not in the published
 * package or the worker image: they are for trying pim-sync and for its tests, not for
 * production. A command that starts them (`sim`, `demo`) is loaded through this, so an installed
 * package answers that it needs a clone instead of a module-resolution stack trace.
 */
export function simulatorsFromClone<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      if (isMissingSimulators(error))
        throw new UsageError(
          "the simulators come with a clone of the repository, not with the package or the image: clone it, run `npm install`, then `node dist/bin/pim-sync.js sim` (or `demo`) there",
        );
      throw error;
    }
  };
}

function isMissingSimulators(error: unknown): boolean {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") return false;
  return /[\\/]dist[\\/]sim[\\/]/.test(error.message);
}
