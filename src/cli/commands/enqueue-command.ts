import { commandLogger } from "../command-logger.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openJobQueues } from "../open-job-queues.js";
import { readCommandArgs, parseProjectId, requireString, configPathOf } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";
import { enqueueActivationOrders } from "./enqueue-activation-orders.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { withApp } from "../../app/with-app.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";

export const ENQUEUE_HELP = `Usage: pim-sync enqueue sync --config FILE --project ID [--full] [--allow-mass-delete]
       pim-sync enqueue activation-orders --config FILE --connection ID

Asks the worker for a sync of the project now. If a sync is already waiting, this one is merged
into it (at most one running and one waiting per project). \`activation-orders\` asks for a pull
of one Activation channel connection (likewise one running and one waiting per connection); an
id the API does not list is refused (exit 2, naming the known ones).

Options:
  --config FILE          configuration file (needs \`redis\`)
                         (default: the PIM_SYNC_CONFIG environment variable)
  --project ID           project id
  --connection ID        Activation channel connection id (activation-orders)
  --full                 replace every collection
  --allow-mass-delete    apply deletions the guard would hold back (not those a pending
                         held plan already holds: approve the plan)
  --json                 print {job_id, status} as JSON
  -h, --help             show this help`;

export async function runEnqueueCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(
    argv,
    io,
    sharedOptions("config", "project", "full", "allow-mass-delete", "json", "connection"),
    ENQUEUE_HELP,
  );
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  if ((positionals[0] !== "sync" && positionals[0] !== "activation-orders") || positionals.length !== 1)
    throw new UsageError("what to enqueue: `sync` or `activation-orders`", ENQUEUE_HELP);
  const settings = await loadCommandSettings(configPathOf(values.config, io.env, ENQUEUE_HELP), io, { secrets: "optional" });
  if (positionals[0] === "activation-orders") {
    return enqueueActivationOrders(settings, requireString(values.connection, "--connection", ENQUEUE_HELP), io, {
      json: values.json === true,
      help: ENQUEUE_HELP,
    });
  }
  const project = parseProjectId(values.project, ENQUEUE_HELP);
  if (!settings.projects.some((p) => p.id === project)) throw new UsageError(`project ${project} is not configured`, ENQUEUE_HELP);
  const logger = commandLogger(settings);
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    const opened = await openJobQueues(app, ENQUEUE_HELP);
    const job = await opened.use((queues) =>
      queues.enqueue("sync.run", {
        project,
        full: values.full === true,
        allow_mass_delete: values["allow-mass-delete"] === true,
        trigger: "cli",
      }),
    );
    const ref = `${job.project}/${job.jobId}`;
    const text = {
      queued: `sync of project ${project} queued: job ${ref}`,
      merged: `a sync of project ${project} was already waiting (job ${ref}); this request joined it`,
      delayed: `a sync of project ${project} was waiting for its retry (job ${ref}); this request joined it, and it runs at ${enqueuedAnswer(ref, job).runs_at ?? "once due"}`,
      "follows-running": `a sync of project ${project} is running (job ${ref}); another one will start when it ends`,
      duplicate: `already queued: job ${ref}`,
    }[job.status];
    writeLine(io.stdout, values.json ? JSON.stringify(enqueuedAnswer(ref, job)) : text);
    return 0;
  });
}
