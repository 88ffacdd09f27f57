import type { Logger } from "pino";
import type { ActivationRuntime } from "./activation-runtime.js";
import type { OrderSink } from "./order-sink.js";

/** What an Activation job's handler is given. */
export interface ActivationJobContext {
  readonly runtime: ActivationRuntime;
  /** The configured sink (`orders.sink`). */
  readonly sink: OrderSink;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  log(line: string): Promise<void>;
}
