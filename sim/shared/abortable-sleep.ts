/**
 * A timer that ends early when the simulator closes. It resolves rather than rejects on abort:
 * a handler that was sleeping then answers a socket that is already gone, which Node ignores,
 * and no rejection has to be caught anywhere.
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener("abort", finish, { once: true });
  });
}
