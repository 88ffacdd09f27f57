import { startWorker } from "../../jobs/start-worker.js";
import { createLogger } from "../../log/create-logger.js";
import { loadSettings } from "../../settings/load-settings.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { parseCommandArgs, requireString } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const WORKER_HELP = `Usage: pim-sync worker --config FILE

Runs the long-lived worker: one queue per configured project in Redis, scheduled syncs
(projects[].schedule), add-options jobs, and the trigger endpoint when \`trigger\` is configured.
Several workers (on several machines) may share one Redis.

SIGTERM or SIGINT: stop taking jobs, let active jobs finish within worker.shutdown_timeout_ms,
close connections, exit 0. Jobs still running at the deadline are aborted and handed back to
the queue (no attempt used), for another worker to finish.

Options:
  --config FILE   configuration file (needs \`redis\`)
  -h, --help      show this help`;

export async function runWorkerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { config: { type: "string" } }, WORKER_HELP);
  if (values.help) {
    writeLine(io.stdout, WORKER_HELP);
    return 0;
  }
  const settings = await loadSettings(requireString(values.config, "--config", WORKER_HELP), io.env);
  if (!settings.redis) throw new UsageError("the worker needs `redis` in the config", WORKER_HELP);
  const logger = createLogger({ level: settings.log_level });
  const worker = await startWorker({ settings, logger });
  writeLine(io.stderr, `pim-sync worker: running for project(s) ${settings.projects.map((p) => p.id).join(", ")}${worker.triggerUrl ? `; trigger endpoint at ${worker.triggerUrl}` : ""}`);
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) return resolve();
    io.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  writeLine(io.stderr, "pim-sync worker: stopping (waiting for active jobs)");
  const { forced } = await worker.stop();
  logger.flush();
  writeLine(io.stderr, `pim-sync worker: stopped${forced ? " (unfinished jobs were handed back to the queue)" : ""}`);
  return 0;
}
