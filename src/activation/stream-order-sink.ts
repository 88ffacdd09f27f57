import { appendFile } from "node:fs/promises";
import { ndjsonLines, type OrderSink } from "./order-sink.js";

/** `--out FILE`: appended in one write. */
export function fileAppendSink(path: string): OrderSink {
  return {
    async deliver(_connection, orders) {
      if (orders.length > 0) await appendFile(path, ndjsonLines(orders));
    },
  };
}

/** stdout: resolves once the stream took the text (a closed pipe fails the pull, state untouched). */
export function streamSink(stream: NodeJS.WritableStream): OrderSink {
  return {
    deliver(_connection, orders) {
      if (orders.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        stream.write(ndjsonLines(orders), (error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
