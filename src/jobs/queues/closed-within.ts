import { setTimeout as sleep } from "node:timers/promises";

/**
 * Whether `closing` ended within `ms`: the one race of a stop against its bound. Closing a queue
 * or a BullMQ worker waits on Redis and on the jobs still running, so a stop that must end bounds
 * each close with this. A failure of `closing` within the bound is thrown (callers that take a
 * failure as the outage already logged pass a closing that cannot fail); the timer keeps no
 * process alive.
 */
export async function closedWithin(closing: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([closing.then(() => true), sleep(ms, false, { ref: false })]);
}
