import { setTimeout as sleep } from "node:timers/promises";

export interface WaitOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** What is waited for, for the timeout message. */
  readonly what: string;
  /** Time between probes; 50 ms when left out. */
  readonly intervalMs?: number;
}

/** What a probe answers once the wait is over: anything but a falsy value. */
export type Reached<T> = Exclude<T, undefined | null | false | 0 | "">;

/**
 * Probes until the probe returns a truthy value, and returns that. A probe that throws counts as
 * "not yet" (its last error is in the timeout message), so conditions that read Redis, a
 * simulator or a process's output can be polled while the system settles; the timeout names
 * `what` and the last value seen. Tests wait on conditions with this, never sleep-then-assert.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions): Promise<Reached<T>> {
  const deadline = Date.now() + options.timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      last = await probe();
      lastError = undefined;
      if (last) return last as Reached<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail =
        lastError !== undefined
          ? `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`
          : `last value: ${JSON.stringify(last) ?? String(last)}`;
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what} (${detail})`);
    }
    await sleep(options.intervalMs ?? 50);
  }
}
