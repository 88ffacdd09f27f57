import type { HistoryTrigger } from "./history-entry.js";

/** The run a write belongs to, as the history names it. */
export interface RunOrigin {
  readonly job: string;
  readonly trigger: HistoryTrigger;
  readonly requestedBy?: string;
}

/** The job data's `trigger` (schedule, cli, api, admin, replay) in the history's words. */
export function historyTriggerOf(jobTrigger: string): HistoryTrigger {
  switch (jobTrigger) {
    case "schedule":
    case "cli":
    case "admin":
    case "replay":
    case "event":
      return jobTrigger;
    default:
      // `api`: the token-protected trigger endpoint.
      return "trigger";
  }
}

/** A queued job's origin: its ref, as `jobs show` and the admin API name it. */
export function jobOrigin(project: number, jobId: string, jobTrigger: string, requestedBy?: string): RunOrigin {
  return { job: `${project}/${jobId}`, trigger: historyTriggerOf(jobTrigger), ...(requestedBy === undefined ? {} : { requestedBy }) };
}

/** A `--once` run of the CLI: no job, so an id of its own (start time and process). */
export function cliOrigin(command: string, startedAt: Date = new Date()): RunOrigin {
  return { job: `cli/${command}-${startedAt.toISOString()}-${process.pid}`, trigger: "cli" };
}
