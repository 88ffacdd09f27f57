import type { Logger } from "pino";
import { z } from "zod";
import { createAgent } from "../http/create-agent.js";
import { createHttpClient } from "../http/http-client.js";
import type { RetryPolicy } from "../http/retry-policy.js";
import { webhookIdempotencyKey } from "./activation-assumptions.js";
import type { OrderSink } from "./order-sink.js";

/**
 * POSTs each order (JSON, bearer token, an Idempotency-Key derived from connection, order id
 * and content) one after the other. Any non-2xx after the bounded retries fails the delivery,
 * so the pull state is not advanced and the job's retry sends them again (same keys). A 3xx is
 * such a failure too (HTTP_REDIRECT, permanent): the order was not delivered, and the redirect
 * is not followed (the bearer token stays on the configured origin).
 */
export function webhookSink(options: {
  readonly url: string;
  readonly token: string;
  readonly logger: Logger;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
}): OrderSink & { close(): Promise<void> } {
  const agent = createAgent({ connections: 2 });
  const http = createHttpClient({
    upstream: "webhook",
    baseUrl: options.url,
    dispatcher: agent,
    logger: options.logger,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    authorize: () => Promise.resolve(`Bearer ${options.token}`),
    // A receiver may answer its own page to a delivery: any 2xx counts, whatever its body.
    htmlMayAnswer: true,
  });
  return {
    async deliver(connection, orders, signal) {
      for (const order of orders) {
        await http.send({
          method: "POST",
          url: options.url,
          json: order.order,
          headers: { "idempotency-key": webhookIdempotencyKey(connection, order.id, order.hash) },
          schema: z.unknown(),
          // The Idempotency-Key makes a repeat harmless.
          idempotent: true,
          responseType: "none",
          signal,
        });
      }
    },
    close: () => agent.close(),
  };
}
