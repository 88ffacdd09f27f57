import { UnrecoverableError } from "bullmq";
import type { ProjectRuntime } from "../../features/project-runtime.js";
import type { Settings } from "../../settings/settings-schema.js";
import { describeHolder, type ProjectLease, type ProjectLock } from "../../stores/state/project-lock.js";
import { SPAN_ATTRIBUTES } from "../../infra/telemetry/span-attribute-names.js";
import type { JobContext } from "../handlers/job-context.js";
import type { ProjectLeaseChain } from "./project-lease-chain.js";
import type { QueueBinding } from "./queue-binding.js";

/**
 * The project queues' side of the processor: a job runs with its project's clients and stores,
 * under the project's lock (shared with the `--once` commands, so they never interleave).
 */
export function projectQueueBinding(args: {
  /** A configured project's clients and stores, made at its first job (the app's, see create-app.ts). */
  readonly runtimeOf: (project: number) => Promise<ProjectRuntime>;
  readonly settings: Settings;
  /**
   * Taken around every job, so a `--once` command (which takes it too) never interleaves with a
   * job of the same project: the job waits while such a command runs.
   */
  readonly projectLock?: ProjectLock;
  /** Keeps the project lock between jobs run back to back (see project-lease-chain.ts). */
  readonly leases?: ProjectLeaseChain;
}): QueueBinding<"project"> {
  const configured = new Set(args.settings.projects.map((project) => project.id));
  return {
    queue: "project",
    place(data, job) {
      const project = data.project;
      if (!configured.has(project)) throw new UnrecoverableError(`project ${project} is not configured in this worker`);
      return {
        subject: String(project),
        logFields: { project, queue: job.queueName },
        spanAttributes: { [SPAN_ATTRIBUTES.project]: project },
        async run(placed, call) {
          // `placed.signal` is read only where it is used: its AbortSignal is made on first read.
          const { token, abort, logger: jobLog, log } = placed;
          // The project's lock is shared with `--once` commands (see project-lock.ts); a job that
          // loses it (expired while the process stalled) stops rather than write beside another.
          let lease: ProjectLease | undefined;
          // The job's own signal is aborted if the lock is lost: one signal per job (AbortSignal.any
          // made a third one, and was a measurable part of a no-op job's CPU).
          const onLockLost = (): void =>
            abort(lease?.signal.reason instanceof Error ? lease.signal.reason : new Error("lost the project lock"));
          try {
            const runtime = await args.runtimeOf(project);
            lease =
              args.leases?.take(token, project) ??
              (await args.projectLock?.acquire(project, describeHolder(`job ${project}/${job.id ?? "?"}`), {
                signal: placed.signal,
                onWait: (heldBy) => {
                  jobLog.write("info", "waiting for the project lock", { heldBy });
                  void job.log(`waiting for the project lock, held by ${heldBy}`).catch(() => undefined);
                },
              }));
            lease?.signal.addEventListener("abort", onLockLost, { once: true });
            jobLog.write("info", "job started");
            const context: JobContext = {
              jobId: job.id ?? "",
              runtime,
              settings: args.settings,
              // Made when the handler first logs: a job that logs nothing never pays for it.
              get logger() {
                return jobLog.logger;
              },
              get signal() {
                return placed.signal;
              },
              log,
            };
            return await call(context);
          } finally {
            lease?.signal.removeEventListener("abort", onLockLost);
            if (lease && args.leases) args.leases.keep(token, project, lease);
            // Not awaited, so the job's end does not wait a Redis round trip for it: the release is
            // written before BullMQ's completion call on the same connection, and Redis runs one
            // connection's commands in order, so the job shows as finished only once its lock is
            // free, and this worker's next job asks for the lock after the release.
            else
              void lease
                ?.release()
                .catch((error: unknown) =>
                  jobLog.write("warn", "could not release the project lock; it expires by itself", { err: error }),
                );
          }
        },
      };
    },
  };
}
