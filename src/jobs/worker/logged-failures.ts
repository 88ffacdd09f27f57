/**
 * The errors a job run has already logged as "job failed" (with its verdict), so that the
 * worker's `failed` event, which BullMQ raises with the same error object, does not log the
 * same failure a second time. Failures raised outside a run (a stalled job given up, a lock
 * lost before the run started) are not in it: the event logs those.
 */
const logged = new WeakSet<object>();

export function markFailureLogged(error: unknown): void {
  if (typeof error === "object" && error !== null) logged.add(error);
}

export function isFailureLogged(error: unknown): boolean {
  return typeof error === "object" && error !== null && logged.has(error);
}
