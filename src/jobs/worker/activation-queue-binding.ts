import type { ActivationRuntime } from "../../features/activation/activation-runtime.js";
import type { OrderSink } from "../../features/activation/order-sink.js";
import { SPAN_ATTRIBUTES } from "../../infra/telemetry/span-attribute-names.js";
import type { QueueBinding } from "./queue-binding.js";

/** The Activation queue's side of the processor: a job runs with the Activation client, state and sink. */
export function activationQueueBinding(args: {
  readonly runtime: ActivationRuntime;
  readonly sink: OrderSink;
}): QueueBinding<"activation"> {
  return {
    queue: "activation",
    place(data) {
      return {
        subject: data.connection,
        logFields: { connection: data.connection },
        spanAttributes: { [SPAN_ATTRIBUTES.activationConnection]: data.connection },
        run({ signal, logger: jobLog, log }, call) {
          jobLog.write("info", "job started");
          return call({ runtime: args.runtime, sink: args.sink, logger: jobLog.logger, signal, log });
        },
      };
    },
  };
}
