import type { Bindings, Level, Logger } from "pino";

/**
 * A child logger made on first use. pino redacts a child's bindings with every redact path of
 * its parent as it is made (createLogger has 18), even when its level logs nothing: made for
 * every job, that was the largest CPU cost of a no-op job (docs/benchmarks.md, queue overhead).
 * Lines written through `write` make it only when the parent's level lets them through; whoever
 * reads `logger` gets it made, with the same bindings, so every line it logs carries them.
 */
export class LazyChildLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
  ) {}

  get logger(): Logger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }

  write(level: Level, message: string, fields?: Record<string, unknown>): void {
    // A child made earlier with the parent's level may have been given another since.
    if (!(this.#child ?? this.parent).isLevelEnabled(level)) return;
    if (fields === undefined) this.logger[level](message);
    else this.logger[level](fields, message);
  }
}
