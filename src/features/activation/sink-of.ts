import type { Logger } from "pino";
import { retryPolicyOf } from "../../infra/http/retry-policy-of.js";
import type { Settings } from "../../settings/settings-schema.js";
import type { ActivationSink } from "../../settings/activation-settings-schema.js";
import { dailyFileSink } from "./daily-file-sink.js";
import type { OrderSink } from "./order-sink.js";
import { webhookSink } from "./webhook-sink.js";

/** The worker's sink from `activation.orders.sink`. */
export function sinkOf(sink: ActivationSink, settings: Settings, logger: Logger): OrderSink & { close(): Promise<void> } {
  if (sink.type === "file") return { ...dailyFileSink(sink.dir), close: () => Promise.resolve() };
  return webhookSink({ url: sink.url, token: sink.token, logger, retry: retryPolicyOf(settings), timeoutMs: settings.http.timeout_ms });
}
