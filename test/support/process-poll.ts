import { setTimeout as sleep } from "node:timers/promises";

export interface PollOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Time between probes; 50 ms when left out. */
  readonly intervalMs?: number;
  /** What is waited for, for the timeout message. */
  readonly what: string;
}

/**
 * Probes until the probe returns something other than undefined, null or false, and returns
 * that. A probe that throws counts as "not yet" (its last error is in the timeout message), so
 * conditions that read Redis or a simulator can be polled while the system settles. Tests wait
 * on conditions with this, never sleep-then-assert.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: PollOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      lastError = undefined;
      if (value !== undefined && value !== null && value !== false) return value;
      last = value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail =
        lastError !== undefined
          ? `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`
          : `last value: ${String(last)}`;
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what} (${detail})`);
    }
    await sleep(options.intervalMs ?? 50);
  }
}
