import type { ProjectLease } from "../../stores/state/project-lock.js";

/**
 * The project lock, kept from one job to the next while a Worker runs its queue's jobs back to
 * back. When BullMQ hands a Worker the queue's next job in the call that completes the previous
 * one (see slot-gated-worker.ts), that job runs under the same lock token; the lease the
 * previous job held is kept for it instead of being released and taken again (two Redis calls
 * per job, a fifth of a no-op job's CPU: docs/benchmarks.md, queue overhead). A `--once` command
 * still never runs beside a job: the lock is held without a gap from the first job of the run to
 * the end of the last, and released as soon as the Worker has no next job (`end`), one Redis
 * round trip after that job shows as completed. While held this way the lock still names the
 * job that took it.
 */
export class ProjectLeaseChain {
  readonly #kept = new Map<string, { readonly project: number; readonly lease: ProjectLease }>();

  constructor(private readonly onReleaseError: (error: Error) => void) {}

  /** The lease the previous job under `token` kept, if it is for `project` and still held. */
  take(token: string | undefined, project: number): ProjectLease | undefined {
    if (token === undefined) return undefined;
    const kept = this.#kept.get(token);
    if (kept === undefined) return undefined;
    this.#kept.delete(token);
    if (kept.project === project && !kept.lease.signal.aborted) return kept.lease;
    this.#release(kept.lease);
    return undefined;
  }

  /** Keeps a job's lease for the next job under the same token; released when the run ends. */
  keep(token: string | undefined, project: number, lease: ProjectLease): void {
    if (token === undefined) this.#release(lease);
    else this.#kept.set(token, { project, lease });
  }

  /** The Worker has no next job under `token`: the lease kept for it goes. */
  end(token: string): void {
    const kept = this.#kept.get(token);
    if (kept === undefined) return;
    this.#kept.delete(token);
    this.#release(kept.lease);
  }

  #release(lease: ProjectLease): void {
    // Not awaited: written at once on the worker's connection, so it reaches Redis before any
    // later call of this process (Redis runs one connection's commands in order).
    lease.release().catch((error: unknown) => this.onReleaseError(error instanceof Error ? error : new Error(String(error))));
  }
}
