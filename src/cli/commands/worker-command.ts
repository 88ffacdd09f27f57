import { createLogger } from "../../infra/log/create-logger.js";
import { createApp } from "../../app/create-app.js";
import { startWorkerApp } from "../../app/start-worker-app.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { parseCommandArgs, configPathOf } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { JSON_KEYS_OPTION, parseJsonKeyStyle } from "../json-output.js";
import { JSON_KEYS_CAMEL_REMOVED_IN } from "../../core/json/json-key-style.js";

export const WORKER_HELP = `Usage: pim-sync worker --config FILE [--json-keys camel]

Runs the long-lived worker: one queue per configured project in Redis, scheduled syncs
(projects[].schedule), add-options jobs, and one HTTP server when \`server\` or \`trigger\` is
configured (health checks, and the trigger routes when \`trigger\` is configured). The HTTP
server opens first: while Redis is away at start, /healthz answers 200 and /readyz 503.
Schedules are written to Redis last, once everything else has started.
Several workers (on several machines) may share one Redis.

SIGTERM or SIGINT: stop taking jobs, let active jobs finish within worker.shutdown_timeout_ms,
close connections, exit 0. Jobs still running at the deadline are aborted and handed back to
the queue (no attempt used), for another worker to finish; one that ignores its abort is left
to its lock expiring, the rest still closed, and the worker exits 1.

Options:
  --config FILE     configuration file (needs \`redis\`)
                    (default: the PIM_SYNC_CONFIG environment variable)
  --json-keys camel the admin API and GET /v1/jobs answer the camelCase keys of earlier
                    versions (deprecated: removed in 0.3.0); snake_case otherwise
  -h, --help        show this help`;

export async function runWorkerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { config: { type: "string" }, ...JSON_KEYS_OPTION }, WORKER_HELP);
  if (values.help) {
    writeLine(io.stdout, WORKER_HELP);
    return 0;
  }
  const jsonKeys = parseJsonKeyStyle(values["json-keys"], WORKER_HELP, null);
  const settings = await loadCommandSettings(configPathOf(values.config, io.env, WORKER_HELP), io);
  if (!settings.redis) throw new UsageError("the worker needs `redis` in the config", WORKER_HELP);
  // From here on every line the worker prints is one JSON log record (stderr).
  const logger = createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings), destination: io.stderr });
  const stopRequested = new Promise<"stop">((resolve) => {
    if (io.signal?.aborted) return resolve("stop");
    io.signal?.addEventListener("abort", () => resolve("stop"), { once: true });
  });
  // The HTTP listener opens first (a port already taken ends the command here, before anything
  // is written to Redis); a worker started while Redis is away then waits for it (logging each
  // reconnect attempt) while /healthz answers, and a signal in the meantime ends it at once.
  if (jsonKeys === "camel")
    logger.warn(
      { option: "--json-keys camel" },
      `deprecated: the admin API and GET /v1/jobs answer camelCase keys until --json-keys camel is removed in ${JSON_KEYS_CAMEL_REMOVED_IN}; move to snake_case`,
    );
  const app = createApp(settings, { logger, role: "worker", worker: { jsonKeys } });
  const running = await startWorkerApp(app, stopRequested);
  if (running === null) {
    logger.info("stopping before the worker started (Redis has not answered yet)");
  } else {
    logger.info(
      { projects: settings.projects.map((p) => p.id), server: app.worker().serverUrl },
      "worker running; SIGTERM or SIGINT to stop",
    );
    await stopRequested;
    logger.info({ shutdownTimeoutMs: settings.worker.shutdown_timeout_ms }, "stopping: waiting for active jobs");
  }
  // The worker's one stop: its listener first, then its jobs, queues and clients, then Redis.
  await app.stop();
  logger.flush();
  return 0;
}
