import { setTimeout as sleep } from "node:timers/promises";
import type { Cluster, Redis } from "ioredis";
import type { RedisClient } from "../../infra/redis/redis-client.js";

/** BZPOPMIN's wait, in seconds: the loop notices a stop within it even if the disconnect is lost. */
const BLOCK_SECONDS = 10;
/** How often a Cluster's markers are read (no blocking read spans slots). */
const CLUSTER_POLL_MS = 1_000;
/**
 * A queue asked no matter what after this long without a wake-up (jittered), in case one was lost
 * (a process killed between reading a wake-up and acting on it).
 */
const SAFETY_POLL_MS = 60_000;

/** The wake-ups of a process' queues, read on one connection for all of them. */
export interface QueueWakeUps {
  /**
   * Resolves when `queue` may have a job: 0 (look now) or the time of its next delayed job; with
   * 0 at `blockUntil` (a delayed job due) or after the safety interval, whichever comes first;
   * Infinity once `signal` aborts.
   */
  wait(queue: string, blockUntil: number, signal: AbortSignal): Promise<number>;
  stop(): void;
}

interface QueueState {
  waiter?: ((blockUntil: number) => void) | undefined;
  pending?: number | undefined;
}

/**
 * BullMQ writes a queue's marker (`{prefix}:{queue}:marker`, score 0 for "a job is ready", else
 * the next delayed job's time) whatever makes a job ready: an add, a retry, a delayed job's
 * promotion, a stalled job handed back, the next run of a schedule. A BullMQ Worker blocks on its
 * queue's marker with a connection of its own, so a process held one connection per project. Here
 * one connection blocks on every marker at once (BZPOPMIN takes many keys and returns the first
 * that has one), and the wake-up goes to that queue's Worker in this process.
 *
 * A marker read is consumed, and reaches one process: that process publishes it on one channel
 * (`{prefix}:wake-ups`), to which every process listens on a connection of its own, so each
 * process' Worker of that queue looks at it, and the first process with a free slot takes the job
 * (a process with none would otherwise sit on the wake-up while others idle: measured, the large
 * fleet used a fifth of its slots).
 *
 * On a Redis Cluster a blocking read cannot span slots (each project's queue has its own), so the
 * markers are read (ZPOPMIN, one call per queue, sent together) every second instead: a wake-up
 * waits up to that second, and a process of 1,000 projects sends 1,000 small calls a second.
 */
export function createQueueWakeUps(args: {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly queues: readonly string[];
  readonly onError: (error: Error) => void;
}): QueueWakeUps {
  const states = new Map<string, QueueState>(args.queues.map((queue) => [queue, {}]));
  const queueOfMarker = new Map(args.queues.map((queue) => [`${args.prefix}:${queue}:marker`, queue]));
  const markers = [...queueOfMarker.keys()];
  const stopping = new AbortController();
  const channel = `${args.prefix}:wake-ups`;

  function notify(queue: string, blockUntil: number): void {
    const state = states.get(queue);
    if (!state) return;
    if (state.waiter) state.waiter(blockUntil);
    else state.pending = state.pending === undefined ? blockUntil : Math.min(state.pending, blockUntil);
  }

  const toError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

  /** To every process (this one included, through its subscription); here at least if that fails. */
  async function announce(queue: string, blockUntil: number): Promise<void> {
    try {
      await args.connection.publish(channel, `${blockUntil} ${queue}`);
    } catch (error) {
      notify(queue, blockUntil);
      if (!stopping.signal.aborted) args.onError(toError(error));
    }
  }

  async function blockOnMarkers(client: Redis): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const popped = await client.bzpopmin(...markers, BLOCK_SECONDS);
        if (popped) await announce(queueOfMarker.get(popped[0]) ?? "", Number(popped[2]));
      } catch (error) {
        if (stopping.signal.aborted) return;
        args.onError(toError(error));
        await sleep(1_000, undefined, { ref: false });
      }
    }
  }

  async function pollMarkers(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const popped = await Promise.all(markers.map((marker) => args.connection.zpopmin(marker)));
        await Promise.all(
          popped.map((entry, index) =>
            entry.length >= 2 ? announce(queueOfMarker.get(markers[index] ?? "") ?? "", Number(entry[1])) : undefined,
          ),
        );
      } catch (error) {
        if (!stopping.signal.aborted) args.onError(toError(error));
      }
      await sleep(CLUSTER_POLL_MS, undefined, { ref: false });
    }
  }

  let blocking: Redis | undefined;
  let listener: Redis | Cluster | undefined;
  if (markers.length > 0) {
    listener = args.connection.isCluster
      ? (args.connection as Cluster).duplicate()
      : (args.connection as Redis).duplicate({ connectionName: `${args.prefix}:wake-ups-listener` });
    listener.on("error", () => undefined);
    listener.on("message", (_channel: string, message: string) => {
      const space = message.indexOf(" ");
      notify(message.slice(space + 1), Number(message.slice(0, space)));
    });
    const reader = args.connection.isCluster
      ? undefined
      : (args.connection as Redis).duplicate({ connectionName: `${args.prefix}:wake-ups` });
    blocking = reader;
    reader?.on("error", () => undefined);
    // Reading starts once this process listens: nothing it announces is lost to itself.
    void listener
      .subscribe(channel)
      .catch((error: unknown) => args.onError(toError(error)))
      .then(() => (reader ? blockOnMarkers(reader) : pollMarkers()));
  }

  return {
    wait(queue, blockUntil, signal) {
      const state = states.get(queue);
      if (!state || signal.aborted) return Promise.resolve(Infinity);
      // A later delayed job's time never postpones an earlier one this Worker already waits for.
      const sooner = (value: number): number => (blockUntil > 0 && value > blockUntil ? blockUntil : value);
      if (state.pending !== undefined) {
        const pending = state.pending;
        state.pending = undefined;
        return Promise.resolve(sooner(pending));
      }
      return new Promise<number>((resolve) => {
        // The safety interval bounds a delayed job's wait too: a job delayed for weeks or years
        // (past a timer's 2^31 - 1 ms, which Node turns into 1 ms) would otherwise make this loop
        // wake every millisecond, and a lost wake-up would wait as long as that job.
        const untilDue = blockUntil > 0 ? Math.max(0, blockUntil - Date.now()) : Infinity;
        const wakeAfter = Math.min(untilDue, SAFETY_POLL_MS * (0.5 + Math.random()));
        const timer = setTimeout(() => done(0), wakeAfter);
        timer.unref();
        const onAbort = (): void => done(Infinity);
        function done(value: number): void {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          if (state) state.waiter = undefined;
          resolve(value);
        }
        state.waiter = (value) => done(sooner(value));
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    stop() {
      stopping.abort();
      blocking?.disconnect();
      listener?.disconnect();
    },
  };
}
