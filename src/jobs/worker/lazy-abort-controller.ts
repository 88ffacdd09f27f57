/**
 * A job's abort controller, whose AbortSignal is made only when someone reads `signal`.
 *
 * Why: every job run has one controller (its time limit, a lost project lock, the shutdown's
 * deadline abort it), but most runs end without anyone reading the signal on the hot path (a
 * chained project lock, a handler that never passes it on). Making an AbortSignal costs an
 * EventTarget per job, a measured part of a no-op job's CPU (docs/benchmarks.md, queue
 * overhead). Aborted before its signal is read, the signal is made already aborted with the
 * same reason; read before, it is aborted as a plain controller's. The first reason wins, as
 * with AbortController.
 */
export class LazyAbortController {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: Error | undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was aborted (undefined while it is not). */
  get reason(): Error | undefined {
    return this.#reason;
  }

  abort(reason: Error): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
