import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { z } from "zod";
import { redisScript } from "../../infra/redis/redis-script.js";
import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** Extends the lock only while it still holds our token (another holder may have it by now). */
const renewScript = redisScript(
  `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`,
);
/** Deletes the lock only while it still holds our token. */
const releaseScript = redisScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`);

/** How often a waiting holder asks again. */
const POLL_MS = 200;

/** The project's lock is held by someone else. */
export class ProjectBusy extends PimSyncError {
  constructor(
    readonly project: number,
    readonly heldBy: string,
  ) {
    super(`project ${project} is busy: ${heldBy} holds its lock; nothing was written, try again when it has finished`, {
      code: "PROJECT_BUSY",
      retryable: true,
    });
    this.name = "ProjectBusy";
  }
}

/** A lock this process holds. */
export interface ProjectLease {
  /** Aborted when the lock was lost (expired without renewal, or taken by another holder). */
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

export interface ProjectLock {
  /** Takes the lock at once, or throws ProjectBusy naming who holds it. */
  tryAcquire(project: number, holder: string): Promise<ProjectLease>;
  /** Waits until the lock is free and takes it; `onWait` is told once who holds it. */
  acquire(
    project: number,
    holder: string,
    options: { readonly signal?: AbortSignal; readonly onWait?: (heldBy: string) => void },
  ): Promise<ProjectLease>;
}

/**
 * One Redis lock per project, `{prefix}:lock:project:{id}` on one server (keyspace.ts), taken by every run that writes a
 * project's state: the worker's jobs and the `--once` commands. The queue's global concurrency
 * already serialises the worker's own jobs; this lock is what also keeps a `--once` run out of
 * them (and them out of it). The value names the holder, for the message of whoever is refused.
 * It expires after `ttlMs` unless renewed (every third of it), so a killed holder frees it.
 */
export function createProjectLock(redis: RedisClient, prefix: string, options: { readonly ttlMs: number }): ProjectLock {
  const { ttlMs } = options;
  const keyspace = keyspaceOf(redis, prefix);
  const keyOf = (project: number): string => keyspace.projectKey(project, "lock:project");

  async function attempt(project: number, holder: string): Promise<ProjectLease | string> {
    const key = keyOf(project);
    const value = JSON.stringify({ token: randomUUID(), holder });
    const taken = await redis.set(key, value, "PX", ttlMs, "NX");
    if (taken === "OK") return lease(key, value);
    const current = await redis.get(key);
    return current === null ? attempt(project, holder) : holderOf(current);
  }

  function lease(key: string, value: string): ProjectLease {
    const controller = new AbortController();
    let renewedAt = Date.now();
    const timer = setInterval(
      () => {
        renewScript(redis, [key], [value, ttlMs]).then(
          (renewed) => {
            if (renewed === 1) renewedAt = Date.now();
            else lost("another holder took it after it expired");
          },
          // Redis unreachable: the lock may still be ours until it would have expired.
          () => {
            if (Date.now() - renewedAt >= ttlMs) lost("it could not be renewed before it expired");
          },
        );
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    timer.unref();
    function lost(why: string): void {
      clearInterval(timer);
      if (!controller.signal.aborted) controller.abort(new Error(`lost the project lock ${key}: ${why}`));
    }
    return {
      signal: controller.signal,
      async release() {
        clearInterval(timer);
        await releaseScript(redis, [key], [value]);
      },
    };
  }

  return {
    async tryAcquire(project, holder) {
      const outcome = await attempt(project, holder);
      if (typeof outcome === "string") throw new ProjectBusy(project, outcome);
      return outcome;
    },
    async acquire(project, holder, { signal, onWait }) {
      let told = false;
      for (;;) {
        signal?.throwIfAborted();
        const outcome = await attempt(project, holder);
        if (typeof outcome !== "string") return outcome;
        if (!told) onWait?.(outcome);
        told = true;
        await sleep(POLL_MS, undefined, { signal });
      }
    },
  };
}

const lockValueSchema = z.object({ holder: z.string() });

function holderOf(value: string): string {
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return "another process";
  }
  const parsed = lockValueSchema.safeParse(raw);
  return parsed.success ? parsed.data.holder : "another process";
}

/** Asked once: `os.hostname()` is a system call, and the worker describes itself for every job. */
let thisHost: string | undefined;

/** Who we are, for the message of whoever the lock refuses. */
export function describeHolder(what: string): string {
  thisHost ??= hostname();
  return `${what} (pid ${process.pid} on ${thisHost})`;
}
