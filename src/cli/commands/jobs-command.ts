import { createJobAdmin, JOB_STATES, type JobState, type JobSummary } from "../../jobs/job-admin.js";
import { loadSettings } from "../../settings/load-settings.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openJobQueues } from "../open-job-queues.js";
import { parseCommandArgs, parseProjectId, requireString } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const JOBS_HELP = `Usage: pim-sync jobs <list|show|retry> --config FILE [options]

  pim-sync jobs list [--state STATE] [--project ID] [--limit N] [--json]
      jobs, newest first; STATE is one of ${JOB_STATES.join(", ")}
  pim-sync jobs show REF [--json]
      one job: data, attempts, failure reason and stack, logs, result
  pim-sync jobs retry REF... | --all-failed [--project ID]
      replay failed jobs with a fresh attempt budget; their data is validated again

REF is <project>/<id> as \`jobs list\` prints it (just <id> when one project is configured).

Options:
  --config FILE   configuration file (needs \`redis\`)
  -h, --help      show this help`;

function renderSummary(job: JobSummary): string {
  const reason = job.failedReason ? `  ${job.failedReason.slice(0, 120)}` : "";
  return `${job.ref.padEnd(12)} ${job.name.padEnd(12)} ${job.state.padEnd(10)} attempts ${String(job.attemptsMade).padEnd(3)} ${job.createdAt}${reason}`;
}

export async function runJobsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      config: { type: "string" },
      state: { type: "string" },
      project: { type: "string" },
      limit: { type: "string" },
      "all-failed": { type: "boolean" },
      json: { type: "boolean" },
    },
    JOBS_HELP,
  );
  if (values.help) {
    writeLine(io.stdout, JOBS_HELP);
    return 0;
  }
  const [action, ...refs] = positionals;
  if (action !== "list" && action !== "show" && action !== "retry") throw new UsageError("jobs needs list, show or retry", JOBS_HELP);
  const state = values.state;
  if (state !== undefined && !(JOB_STATES as readonly string[]).includes(state)) throw new UsageError(`--state must be one of ${JOB_STATES.join(", ")}`, JOBS_HELP);
  const project = values.project === undefined ? undefined : parseProjectId(values.project, JOBS_HELP);
  const settings = await loadSettings(requireString(values.config, "--config", JOBS_HELP), io.env, { secrets: "optional" });
  const opened = await openJobQueues(settings, JOBS_HELP, io.signal);
  const admin = createJobAdmin(opened.queues);
  try {
    return await opened.use(async () => {
    if (action === "list") {
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number", JOBS_HELP);
      const jobs = await admin.list({ state: state as JobState | undefined, project, limit });
      writeLine(io.stdout, values.json ? JSON.stringify(jobs, null, 2) : jobs.length === 0 ? "no jobs" : jobs.map(renderSummary).join("\n"));
      return 0;
    }
    if (action === "show") {
      if (refs.length !== 1 || refs[0] === undefined) throw new UsageError("jobs show takes one job reference", JOBS_HELP);
      const job = await admin.show(refs[0]);
      if (values.json) writeLine(io.stdout, JSON.stringify(job, null, 2));
      else {
        writeLine(io.stdout, renderSummary(job));
        writeLine(io.stdout, `data: ${JSON.stringify(job.data)}`);
        writeLine(io.stdout, `attempts: ${job.attemptsMade} made, ${job.attemptsStarted} started`);
        if (job.failedReason) writeLine(io.stdout, `failure: ${job.failedReason}`);
        for (const line of job.stacktrace) writeLine(io.stdout, `stack: ${line}`);
        for (const line of job.logs) writeLine(io.stdout, `log: ${line}`);
        writeLine(io.stdout, `result: ${JSON.stringify(job.result)}`);
      }
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
    for (const result of results) writeLine(io.stdout, `${result.ref}: ${result.outcome}${result.reason ? ` (${result.reason})` : ""}`);
    return results.some((result) => result.outcome === "skipped") ? 1 : 0;
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof Error && /not a job reference|needs its project|not found|not configured/.test(error.message)) throw new UsageError(error.message, JOBS_HELP);
    throw error;
  } finally {
    await opened.close();
  }
}
