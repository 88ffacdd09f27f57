import { commandLogger } from "../command-logger.js";
import { withApp } from "../../app/with-app.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";
import { activationQueueOf } from "./activation-queue-of.js";
import { requireKnownConnection, UnknownConnection } from "../../features/activation/unknown-connection.js";
import { createLogger } from "../../infra/log/create-logger.js";
import type { Settings } from "../../settings/settings-schema.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { UsageError } from "../usage-error.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";
import { messageOf } from "../../core/errors/message-of.js";

/**
 * The same check as the trigger's: the id must be one of the API's channel connections. When the
 * list cannot be read (the API is away), the pull is queued anyway and stderr says it was not
 * checked: the worker's pull will report the id if it is wrong.
 */
async function refuseUnknownConnection(settings: Settings, connection: string, io: CliIo, help: string): Promise<void> {
  const logger = createLogger({ level: "silent", redactor: redactorOfSettings(settings) });
  // Only the client is used: without `redis` the app connects none for the check.
  await withApp({ ...settings, redis: undefined }, { logger, signal: io.signal }, async (app) => {
    try {
      await requireKnownConnection((await app.activation()).client, connection, io.signal);
    } catch (error) {
      if (error instanceof UnknownConnection) throw new UsageError(error.message, help);
      writeLine(
        io.stderr,
        `connection ${connection} not checked: the Activation API's connection list could not be read (${messageOf(error)})`,
      );
    }
  });
}

/** `pim-sync enqueue activation-orders --connection ID`: a pull of that connection now, by the worker. */
export async function enqueueActivationOrders(
  settings: Settings,
  connection: string,
  io: CliIo,
  options: { readonly json: boolean; readonly help: string },
): Promise<number> {
  if (!settings.activation) throw new UsageError("the config has no `activation` section", options.help);
  if (!settings.redis) throw new UsageError("this command needs `redis` in the config (jobs live in Redis)", options.help);
  await refuseUnknownConnection(settings, connection, io, options.help);
  const logger = commandLogger(settings);
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    const queue = await activationQueueOf(app);
    const job = await queue.enqueue("activation.orders.pull", { connection, trigger: "cli" });
    const text = {
      queued: `pull of connection ${connection} queued: job ${job.ref}`,
      merged: `a pull of connection ${connection} was already waiting (job ${job.ref}); this request joined it`,
      delayed: `a pull of connection ${connection} was waiting for its retry (job ${job.ref}); this request joined it, and it runs at ${enqueuedAnswer(job.ref, job).runs_at ?? "once due"}`,
      "follows-running": `a pull of connection ${connection} is running (job ${job.ref}); another one will start when it ends`,
      duplicate: `already queued: job ${job.ref}`,
    }[job.status];
    writeLine(io.stdout, options.json ? JSON.stringify(enqueuedAnswer(job.ref, job)) : text);
    return 0;
  });
}
