import type { Logger } from "pino";
import { z } from "zod";
import { createAgent } from "../../infra/http/create-agent.js";
import { createHttpClient } from "../../infra/http/http-client.js";
import { HttpError } from "../../infra/http/http-error.js";
import type { RetryPolicy } from "../../infra/http/retry-policy.js";
import { deliveryRecord, type OrderSink } from "./order-sink.js";

/**
 * Statuses that say the webhook as a whole is wrong (credentials, address, method), not this
 * order: they stop the pull like an outage would, instead of setting every order aside.
 */
const ENDPOINT_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 405, 407]);

/**
 * The receiver refused this order for good: any other 4xx that is not transient (408, 425 and
 * 429 are retried). A choice where no receiver contract exists: a 400/409/413/422 is about the
 * body, and sending it again unchanged would be refused the same way.
 */
export function isOrderRefusal(error: unknown): error is HttpError & { readonly status: number } {
  return (
    error instanceof HttpError &&
    error.code === "HTTP_STATUS" &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    !error.transient &&
    !ENDPOINT_STATUSES.has(error.status)
  );
}

/**
 * POSTs each order's delivery record (JSON, bearer token, `Idempotency-Key: <delivery id>`) one
 * after the other, reporting each as it is accepted or refused. A failure worth another try
 * (5xx, timeouts, 429 after the bounded retries) or an endpoint-wide refusal rejects: the orders
 * after it are not sent, the job's retry sends them (and only them) again. A 3xx is such a
 * failure too (HTTP_REDIRECT, permanent): the order was not delivered, and the redirect is not
 * followed (the bearer token stays on the configured origin).
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
    async deliver(connection, orders, { signal, onOutcome }) {
      for (const order of orders) {
        try {
          await http.send({
            method: "POST",
            url: options.url,
            json: deliveryRecord(connection, order),
            headers: { "idempotency-key": order.deliveryId },
            schema: z.unknown(),
            // The Idempotency-Key makes a repeat harmless.
            idempotent: true,
            responseType: "none",
            signal,
          });
        } catch (error) {
          if (!isOrderRefusal(error)) throw error;
          await onOutcome({ kind: "refused", order, status: error.status, reason: error.message });
          continue;
        }
        await onOutcome({ kind: "delivered", orders: [order] });
      }
    },
    close: () => agent.close(),
  };
}
