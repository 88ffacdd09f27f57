import type { Logger } from "pino";

/** Thrown by `releaseAll` when one release or more failed: every release was still attempted. */
export class ReleaseFailed extends AggregateError {
  constructor(errors: readonly unknown[], names: readonly string[]) {
    super(errors, `could not release ${names.join(", ")} (everything else was released)`);
    this.name = "ReleaseFailed";
  }
}

/** What the app acquired, released in the reverse order of acquisition. */
export interface ReleaseStack {
  /** Records a resource just acquired; once `releaseAll` has begun, releases it at once and throws. */
  push(name: string, release: () => Promise<unknown> | void): void;
  /**
   * Pops and releases every resource, the last acquired first, each once. A failing release is
   * logged and the others still run (a Redis left open would keep the process alive, and a file
   * store not flushed would lose state); the failures are thrown together at the end, so that
   * the caller learns that something was not released cleanly. A second call (or one made
   * while the first runs) waits for the first and releases nothing more.
   */
  releaseAll(): Promise<void>;
  readonly released: boolean;
}

export function createReleaseStack(logger: Logger): ReleaseStack {
  const entries: { readonly name: string; readonly release: () => Promise<unknown> | void }[] = [];
  let releasing: Promise<void> | null = null;

  async function unwind(): Promise<void> {
    const errors: unknown[] = [];
    const names: string[] = [];
    for (let entry = entries.pop(); entry !== undefined; entry = entries.pop()) {
      try {
        await entry.release();
      } catch (error) {
        logger.error({ err: error, resource: entry.name }, "could not release a resource; releasing the others");
        errors.push(error);
        names.push(entry.name);
      }
    }
    if (errors.length > 0) throw new ReleaseFailed(errors, names);
  }

  return {
    push(name, release) {
      if (releasing) {
        // Acquired while stopping (a connection that answered late): released at once, and the
        // caller that wanted it fails rather than using what is already going away.
        void Promise.resolve()
          .then(release)
          .catch((error: unknown) => logger.error({ err: error, resource: name }, "could not release a resource"));
        throw new Error(`${name} was acquired after the app began stopping; it was released`);
      }
      entries.push({ name, release });
    },
    releaseAll() {
      releasing ??= unwind();
      return releasing;
    },
    get released() {
      return releasing !== null;
    },
  };
}
