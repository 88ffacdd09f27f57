import { commandLogger } from "../command-logger.js";
import { withApp } from "../../app/with-app.js";
import { activationQueueOf } from "./activation-queue-of.js";
import type { Settings } from "../../settings/settings-schema.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { UsageError } from "../usage-error.js";

/**
 * `pim-sync activation resend --connection ID [--order ID]...`: the worker re-sends set-aside
 * orders through its sink (a job on the Activation queue, so it never runs beside a pull).
 */
export async function enqueueResend(
  settings: Settings,
  connection: string,
  orders: readonly (string | boolean)[] | undefined,
  io: CliIo,
  options: { readonly json: boolean; readonly help: string },
): Promise<number> {
  if (!settings.redis)
    throw new UsageError(
      "`activation resend` needs `redis` in the config: set-aside orders are the worker's, and it re-sends them",
      options.help,
    );
  const orderIds = (orders ?? []).filter((order): order is string => typeof order === "string");
  const logger = commandLogger(settings);
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    const queue = await activationQueueOf(app);
    const job = await queue.enqueue("activation.orders.resend", {
      connection,
      ...(orderIds.length > 0 ? { order_ids: orderIds } : {}),
      requested_by: "cli",
    });
    const what = orderIds.length > 0 ? `order(s) ${orderIds.join(", ")}` : "every set-aside order";
    writeLine(
      io.stdout,
      options.json
        ? JSON.stringify({ job_id: job.ref, status: job.status })
        : `re-send of ${what} of connection ${connection} queued: job ${job.ref}`,
    );
    return 0;
  });
}
