import type { Job, JobType, Queue } from "bullmq";
import { ACTIVATION_QUEUE } from "./activation-queue.js";
import type { JobQueues } from "./job-queues.js";
import { isJobName, parseJobData } from "./job-catalog.js";

export const JOB_STATES = ["failed", "waiting", "active", "completed", "delayed", "prioritized", "waiting-children"] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobSummary {
  /** `<project>/<id>`: job ids are per project queue; `activation/<id>` for the Activation queue. */
  readonly ref: string;
  /** null for Activation jobs (they belong to no project). */
  readonly project: number | null;
  readonly id: string;
  readonly name: string;
  readonly state: string;
  readonly attemptsMade: number;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  readonly failedReason: string | null;
}

export interface JobDetails extends JobSummary {
  readonly data: unknown;
  readonly result: unknown;
  readonly stacktrace: readonly string[];
  readonly logs: readonly string[];
  readonly attemptsStarted: number;
}

/** Parses `67/12` (or `12` when only one project is configured). */
export function parseJobRef(ref: string, projects: readonly number[]): { project: number; id: string } {
  const match = /^(?:(\d+)\/)?([A-Za-z0-9_:.-]+)$/.exec(ref.trim());
  if (!match?.[2]) throw new Error(`'${ref}' is not a job reference: use <project>/<id>, as \`pim-sync jobs list\` prints`);
  if (match[1] !== undefined) return { project: Number(match[1]), id: match[2] };
  if (projects.length === 1 && projects[0] !== undefined) return { project: projects[0], id: match[2] };
  throw new Error(`'${ref}' needs its project: <project>/<id> (several projects are configured)`);
}

/** A queue the admin reads: a project's, or the Activation queue (`project` null). */
interface AdminQueue {
  readonly project: number | null;
  readonly queue: Queue;
}

const refPrefixOf = (target: AdminQueue): string => (target.project === null ? ACTIVATION_QUEUE : String(target.project));

async function summarize(project: number | null, job: Job): Promise<JobSummary> {
  return {
    ref: `${project === null ? ACTIVATION_QUEUE : project}/${job.id ?? ""}`,
    project,
    id: job.id ?? "",
    name: job.name,
    state: await job.getState(),
    attemptsMade: job.attemptsMade,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    failedReason: job.failedReason || null,
  };
}

/** Inspection and replay, for admins (`pim-sync jobs …`). */
export function createJobAdmin(queues: JobQueues, options: { readonly activation?: Queue } = {}) {
  /** Every queue to look at: the project's, or all projects' plus the Activation queue when configured. */
  function targetsOf(project?: number): AdminQueue[] {
    if (project !== undefined) {
      if (!queues.projects.includes(project)) throw new Error(`project ${project} is not configured`);
      return [{ project, queue: queues.queueFor(project) }];
    }
    const targets: AdminQueue[] = queues.projects.map((id) => ({ project: id, queue: queues.queueFor(id) }));
    if (options.activation) targets.push({ project: null, queue: options.activation });
    return targets;
  }

  async function getJob(ref: string): Promise<{ project: number | null; job: Job; queue: Queue }> {
    const activationRef = new RegExp(`^\\s*${ACTIVATION_QUEUE}/([A-Za-z0-9_:.-]+)\\s*$`).exec(ref);
    if (activationRef?.[1] !== undefined) {
      if (!options.activation) throw new Error("the Activation queue is not configured (no `activation` section)");
      const job = await options.activation.getJob(activationRef[1]);
      if (!job) throw new Error(`job ${ACTIVATION_QUEUE}/${activationRef[1]} not found (it may have been removed after its retention period)`);
      return { project: null, job, queue: options.activation };
    }
    const { project, id } = parseJobRef(ref, queues.projects);
    if (!queues.projects.includes(project)) throw new Error(`project ${project} is not configured`);
    const job = await queues.queueFor(project).getJob(id);
    if (!job) throw new Error(`job ${project}/${id} not found (it may have been removed after its retention period)`);
    return { project, job, queue: queues.queueFor(project) };
  }

  return {
    async list(listOptions: { readonly state?: JobState; readonly project?: number; readonly limit?: number } = {}): Promise<JobSummary[]> {
      const types: JobType[] = listOptions.state ? [listOptions.state] : [...JOB_STATES];
      const out: JobSummary[] = [];
      for (const target of targetsOf(listOptions.project)) {
        const jobs = await target.queue.getJobs(types, 0, (listOptions.limit ?? 100) - 1);
        for (const job of jobs) out.push(await summarize(target.project, job));
      }
      return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },

    async show(ref: string): Promise<JobDetails> {
      const { project, job, queue } = await getJob(ref);
      const logs = await queue.getJobLogs(job.id ?? "");
      return {
        ...(await summarize(project, job)),
        data: job.data,
        result: job.returnvalue ?? null,
        stacktrace: job.stacktrace ?? [],
        logs: logs.logs,
        attemptsStarted: job.attemptsStarted,
      };
    },

    /**
     * Replays failed jobs with a fresh attempt budget. The data is validated again first: a job
     * whose data no longer parses (an older version's) is reported, not replayed.
     */
    async retry(refs: readonly string[]): Promise<{ ref: string; outcome: "retried" | "skipped"; reason?: string }[]> {
      const results: { ref: string; outcome: "retried" | "skipped"; reason?: string }[] = [];
      for (const ref of refs) {
        const { project, job } = await getJob(ref);
        const state = await job.getState();
        const summaryRef = `${project === null ? ACTIVATION_QUEUE : project}/${job.id ?? ""}`;
        if (state !== "failed") {
          results.push({ ref: summaryRef, outcome: "skipped", reason: `it is ${state}, not failed` });
          continue;
        }
        if (!isJobName(job.name)) {
          results.push({ ref: summaryRef, outcome: "skipped", reason: `unknown job name '${job.name}'` });
          continue;
        }
        try {
          parseJobData(job.name, job.data);
        } catch (error) {
          results.push({ ref: summaryRef, outcome: "skipped", reason: (error as Error).message });
          continue;
        }
        await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
        results.push({ ref: summaryRef, outcome: "retried" });
      }
      return results;
    },

    async failedRefs(project?: number): Promise<string[]> {
      const refs: string[] = [];
      for (const target of targetsOf(project)) {
        for (const job of await target.queue.getJobs(["failed"], 0, -1)) refs.push(`${refPrefixOf(target)}/${job.id ?? ""}`);
      }
      return refs;
    },
  };
}

export type JobAdmin = ReturnType<typeof createJobAdmin>;
