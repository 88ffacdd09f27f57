import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `condition` every `intervalMs` until it returns a truthy value, and returns that value.
 * Fails after `timeoutMs` with `what` and the last value seen (or the last error thrown), so a
 * timeout says what was being waited for. Never sleep-then-assert: wait for the condition.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  timeoutMs: number,
  what = "condition",
  intervalMs = 50,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      last = await condition();
      lastError = undefined;
      if (last) return last as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail =
        lastError !== undefined
          ? `last error: ${(lastError as Error).message ?? String(lastError)}`
          : `last value: ${JSON.stringify(last)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${detail})`);
    }
    await sleep(intervalMs);
  }
}
