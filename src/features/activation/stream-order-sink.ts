import { appendFile } from "node:fs/promises";
import { ndjsonLines, type OrderSink } from "./order-sink.js";

/** `--out FILE`: appended in one write. */
export function fileAppendSink(path: string): OrderSink {
  return {
    async deliver(connection, orders, options) {
      if (orders.length === 0) return;
      await appendFile(path, ndjsonLines(connection, orders));
      await options.onOutcome({ kind: "delivered", orders });
    },
  };
}

/** stdout: delivered once the stream took the text (a closed pipe fails the pull, state untouched). */
export function streamSink(stream: NodeJS.WritableStream): OrderSink {
  return {
    async deliver(connection, orders, options) {
      if (orders.length === 0) return;
      await new Promise<void>((resolve, reject) => {
        stream.write(ndjsonLines(connection, orders), (error) => (error ? reject(error) : resolve()));
      });
      await options.onOutcome({ kind: "delivered", orders });
    },
  };
}
