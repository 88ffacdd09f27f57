import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileSinkName } from "../../upstreams/activation/activation-assumptions.js";
import { ndjsonLines, type OrderSink } from "./order-sink.js";

/** The worker's file sink: one NDJSON file per connection per UTC day under `dir`, appended in one write. */
export function dailyFileSink(dir: string, now: () => Date = () => new Date()): OrderSink {
  return {
    async deliver(connection, orders, options) {
      if (orders.length === 0) return;
      await mkdir(dir, { recursive: true });
      await appendFile(join(dir, fileSinkName(connection, now())), ndjsonLines(connection, orders));
      await options.onOutcome({ kind: "delivered", orders });
    },
  };
}
