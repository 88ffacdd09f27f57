import {
  createJobAdmin,
  jobDetailsInKeyStyle,
  JOB_STATES,
  JobNotFoundError,
  JobRefError,
  type JobDetails,
  type JobState,
  type JobSummary,
} from "../../jobs/admin/job-admin.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openJobQueues } from "../open-job-queues.js";
import { readCommandArgs, parseProjectId, configPathOf } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";
import { jsonText, parseJsonKeyStyle } from "../json-output.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { withApp } from "../../app/with-app.js";
import { createLogger } from "../../infra/log/create-logger.js";

export const JOBS_HELP = `Usage: pim-sync jobs <list|show|retry> --config FILE [options]

  pim-sync jobs list [--state STATE] [--project ID] [--limit N] [--json]
      the newest N jobs (100) over every project, newest first; STATE is one of
      ${JOB_STATES.join(", ")}
  pim-sync jobs show REF [--json]
      one job: data, attempts, the failure of its current attempt with its stack, logs, result
  pim-sync jobs retry REF... | --all-failed [--project ID]
      replay failed jobs with a fresh attempt budget; their data is validated again

REF is <project>/<id> as \`jobs list\` prints it (just <id> when one project is configured), or
activation/<id> for an Activation job (listed with the others when \`activation\` is configured).

Options:
  --config FILE   configuration file (needs \`redis\`)
                  (default: the PIM_SYNC_CONFIG environment variable)
  -h, --help      show this help`;

const LIST_COLUMNS = ["REF", "JOB", "STATE", "ATTEMPTS", "CREATED", "DATA", "FAILURE"] as const;

function listRow(job: JobSummary): string[] {
  // The reason whole, on one line: its end names the status code (a cut kept the URL and lost it).
  // It is the last column, so its length widens nothing.
  return [
    job.ref,
    job.name,
    // A held-back sync completed, but did not do all it was asked: not a plain "completed"; a
    // delayed job says when it runs (a retry waiting out an upstream's Retry-After is not lost).
    job.outcome !== null ? `${job.state} (${job.outcome})` : job.runsAt !== null ? `${job.state} until ${job.runsAt}` : job.state,
    String(job.attemptsMade),
    job.createdAt,
    job.summary,
    job.failedReason ? job.failedReason.replace(/\s+/g, " ") : "",
  ];
}

/** A header row and columns as wide as their longest cell, whatever the id lengths. */
function renderTable(rows: readonly (readonly string[])[]): string {
  const widths = LIST_COLUMNS.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(LIST_COLUMNS), ...rows.map(line)].join("\n");
}

/** `outcome`: what became of an add-options request (describeAddOptionsOutcome), null for any other job. */
function renderShown(job: JobDetails, outcome: string | null): string[] {
  const lines = [
    renderTable([listRow(job)]).split("\n")[1] ?? job.ref,
    `data: ${JSON.stringify(job.data)}`,
    `attempts: ${job.attemptsMade} made, ${job.attemptsStarted} started`,
  ];
  if (job.failedReason)
    lines.push(`failure: ${job.failedReason}`, ...job.stacktrace.flatMap((stack) => stack.split("\n").map((line) => `stack: ${line}`)));
  if (job.pendingRetryReason) lines.push(`last attempt failed, will be retried: ${job.pendingRetryReason}`);
  // Stacks of attempts before the current one: history, so not shown as if they were current.
  if (job.earlierStacktraces.length > 0)
    lines.push(`earlier attempts: ${job.earlierStacktraces.length} failed before this one (their stacks: --json, earlier_stacktraces)`);
  for (const line of job.logs) lines.push(`log: ${line}`);
  if (outcome !== null) lines.push(`outcome: ${outcome}`);
  lines.push(`result: ${JSON.stringify(job.result)}`);
  return lines;
}

export async function runJobsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(
    argv,
    io,
    { ...sharedOptions("config", "project", "limit", "json", "json-keys"), state: { type: "string" }, "all-failed": { type: "boolean" } },
    JOBS_HELP,
  );
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const keyStyle = parseJsonKeyStyle(values["json-keys"], JOBS_HELP, io.stderr);
  const [action, ...refs] = positionals;
  if (action !== "list" && action !== "show" && action !== "retry") throw new UsageError("jobs needs list, show or retry", JOBS_HELP);
  const state = values.state;
  if (state !== undefined && !(JOB_STATES as readonly string[]).includes(state))
    throw new UsageError(`--state must be one of ${JOB_STATES.join(", ")}`, JOBS_HELP);
  const project = values.project === undefined ? undefined : parseProjectId(values.project, JOBS_HELP);
  const settings = await loadCommandSettings(configPathOf(values.config, io.env, JOBS_HELP), io, { secrets: "optional" });
  // The secrets set in this environment (the `jobs` commands run without the unset ones).
  const redactor = redactorOfSettings(settings);
  const logger = createLogger({ level: settings.log_level, redactor });
  try {
    return await withApp(settings, { logger, signal: io.signal }, async (app) => {
      const opened = await openJobQueues(app, JOBS_HELP);
      const admin = createJobAdmin(opened.queues, { redactor, ...(opened.activation ? { activation: opened.activation.queue } : {}) });
      return opened.use(async () => {
        if (action === "list") {
          const limit = values.limit === undefined ? 100 : Number(values.limit);
          if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number", JOBS_HELP);
          const jobs = await admin.list({ state: state as JobState | undefined, project, limit });
          writeLine(io.stdout, values.json ? jsonText(jobs, keyStyle) : jobs.length === 0 ? "no jobs" : renderTable(jobs.map(listRow)));
          return 0;
        }
        if (action === "show") {
          if (refs.length !== 1 || refs[0] === undefined) throw new UsageError("jobs show takes one job reference", JOBS_HELP);
          const job = await admin.show(refs[0]);
          if (values.json) {
            writeLine(io.stdout, jsonText(jobDetailsInKeyStyle(job, keyStyle), keyStyle));
            return 0;
          }
          // Loaded for `show` alone: its schema is built as it loads, which `jobs list` has no use for.
          const { describeAddOptionsOutcome } = await import("../../features/add-options/describe-add-options-outcome.js");
          const outcome = job.name === "options.add" ? describeAddOptionsOutcome(job.ref.split("/")[0] ?? "", job.result) : null;
          writeLine(io.stdout, renderShown(job, outcome).join("\n"));
          return 0;
        }
        if (refs.length > 0 && values["all-failed"]) throw new UsageError("give job references or --all-failed, not both", JOBS_HELP);
        const targets = values["all-failed"] ? await admin.failedRefs(project) : refs;
        if (targets.length === 0) {
          writeLine(io.stdout, values["all-failed"] ? "no failed jobs" : "");
          if (!values["all-failed"]) throw new UsageError("jobs retry needs job references or --all-failed", JOBS_HELP);
          return 0;
        }
        const results = await admin.retry(targets);
        if (values.json) writeLine(io.stdout, jsonText({ results }, keyStyle));
        else
          for (const result of results)
            writeLine(io.stdout, `${result.ref}: ${result.outcome}${result.reason ? ` (${result.reason})` : ""}`);
        return results.some((result) => result.outcome === "skipped") ? 1 : 0;
      });
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // A wrong reference is not a wrong command line: one line, without the usage.
    if (error instanceof JobNotFoundError) throw new UsageError(error.message);
    if (error instanceof JobRefError) throw new UsageError(error.message);
    throw error;
  }
}
