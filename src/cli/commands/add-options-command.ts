import { commandLogger } from "../command-logger.js";
import { AddOptionsRejected } from "../../features/add-options/add-options-rejected.js";
import { runAddOptions } from "../../features/add-options/run-add-options.js";
import { IdempotencyKeyConflict } from "../../jobs/queues/idempotency-key-conflict.js";
import { JobDataError, parseJobData } from "../../jobs/catalog/job-catalog.js";
import { namingOf } from "../../settings/project-sync-settings-of.js";
import { findProject } from "../../settings/find-project.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openJobQueues } from "../open-job-queues.js";
import { jsonText, parseJsonKeyStyle } from "../json-output.js";
import { readCommandArgs, projectArgsOf, requireString } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";
import { withApp } from "../../app/with-app.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { messageOf } from "../../core/errors/message-of.js";

export const ADD_OPTIONS_HELP = `Usage: pim-sync add-options --config FILE --project ID --attribute CODE --options JSON [options]

Adds options to every collection derived from a PIM attribute (a localizable or scopable
attribute has several) through the service's add-options endpoint, which creates them in the
PIM too. Only attributes listed in the project's allowed_options_for_pim_attribute_addition,
and only select or reference-entity attributes. Existing options are never re-sent or updated.

  --options '[{"name": "teal", "label": {"en-US": "Teal", "fr-FR": "Sarcelle"}}]'

Option names follow the PIM code rule (letters, digits, underscore); label keys are locales
(en-US; en_US is accepted).

Options:
  --config FILE           configuration file
                          (default: the PIM_SYNC_CONFIG environment variable)
  --project ID            project id
  --attribute CODE        PIM attribute code
  --options JSON          the options, as a JSON array
  --once                  run it now in this process (no Redis needed) instead of queueing a job
  --requested-by NAME     who asked (kept with the job)
  --idempotency-key KEY   repeated requests with the same key make one job (the same key with
                          other options or attribute is refused, exit 2)
  --json                  print the result as JSON
  -h, --help              show this help

Exit codes: 0 done (or queued), 1 failure, 2 bad input or rejected (nothing written).`;

export async function runAddOptionsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(
    argv,
    io,
    {
      ...sharedOptions("config", "project", "once", "json", "json-keys"),
      attribute: { type: "string" },
      options: { type: "string" },
      "requested-by": { type: "string" },
      "idempotency-key": { type: "string" },
    },
    ADD_OPTIONS_HELP,
  );
  if (parsed === null) return 0;
  const { values } = parsed;
  const { configPath, projectId } = projectArgsOf(values, io.env, ADD_OPTIONS_HELP);
  let options: unknown;
  try {
    options = JSON.parse(requireString(values.options, "--options", ADD_OPTIONS_HELP));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--options is not valid JSON: ${messageOf(error)}`, ADD_OPTIONS_HELP);
  }
  let request;
  try {
    request = parseJobData("options.add", {
      project: projectId,
      attribute: requireString(values.attribute, "--attribute", ADD_OPTIONS_HELP),
      options,
      ...(values["requested-by"] ? { requested_by: values["requested-by"] } : {}),
    });
  } catch (error) {
    if (error instanceof JobDataError) throw new UsageError(error.problems.join("\n  "), ADD_OPTIONS_HELP);
    throw error;
  }

  // Queued, it only writes to Redis: the upstream secrets are needed by --once alone.
  const settings = await loadCommandSettings(configPath, io, { secrets: values.once ? "required" : "optional" });
  const project = findProject(settings, projectId);
  if (!project) throw new UsageError(`project ${projectId} is not in ${configPath}`, ADD_OPTIONS_HELP);
  if (!project.allowed_options_for_pim_attribute_addition.includes(request.attribute)) {
    throw new UsageError(
      `attribute '${request.attribute}' is not in allowed_options_for_pim_attribute_addition of project ${projectId}`,
      ADD_OPTIONS_HELP,
    );
  }

  const logger = commandLogger(settings);
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    if (!values.once) {
      const opened = await openJobQueues(app, ADD_OPTIONS_HELP);
      const key = values["idempotency-key"] ? `${projectId}:${values["idempotency-key"]}` : undefined;
      const job = await opened
        .use((queues) => queues.enqueue("options.add", request, { idempotencyKey: key }))
        .catch((error: unknown) => {
          if (error instanceof IdempotencyKeyConflict) throw new UsageError(`--idempotency-key: ${error.message}`, ADD_OPTIONS_HELP);
          throw error;
        });
      const ref = `${job.project}/${job.jobId}`;
      writeLine(
        io.stdout,
        values.json
          ? JSON.stringify({ job_id: ref, status: job.status })
          : `add-options ${job.status === "duplicate" ? "already queued" : "queued"}: job ${ref}`,
      );
      return 0;
    }

    const signal = await app.lockProject(projectId, `add-options --once of project ${projectId}`);
    const runtime = await app.project(projectId);
    try {
      const report = await runAddOptions(
        { pim: runtime.pim, service: runtime.service, state: runtime.state, history: runtime.history, logger },
        {
          allowedAttributes: project.allowed_options_for_pim_attribute_addition,
          filters: { channels: project.channels, locales: project.locales },
          naming: namingOf(project),
        },
        request,
        { signal, visibility: { attempts: settings.add_options.visibility_attempts, delayMs: settings.add_options.visibility_delay_ms } },
      );
      if (values.json) writeLine(io.stdout, jsonText(report, parseJsonKeyStyle(values["json-keys"], ADD_OPTIONS_HELP, io.stderr)));
      else {
        for (const c of report.collections) {
          writeLine(
            io.stdout,
            `${c.collection}: added ${c.added.length ? c.added.join(", ") : "nothing"}${c.skipped.length ? `; already there: ${c.skipped.join(", ")}` : ""}`,
          );
        }
        for (const name of report.missing) writeLine(io.stdout, `${name}: missing in the configuration service (not created)`);
      }
      return 0;
    } catch (error) {
      if (error instanceof AddOptionsRejected) throw new UsageError(error.reasons.join("\n  "));
      throw error;
    }
  });
}
