import { Counter, Gauge, Histogram, type Registry } from "prom-client";

interface Described<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
}

/** One row of a metric table: what `/metrics` shows of the metric, and for a gauge read at scrape time how it is read. */
export type MetricDefinition<L extends string = string> =
  | (Described<L> & { readonly type: "counter" })
  | (Described<L> & { readonly type: "histogram"; readonly buckets: readonly number[] })
  | (Described<L> & {
      readonly type: "gauge";
      /**
       * Fills the gauge at each scrape, after its previous values are cleared (a series no longer
       * read is gone). Type its parameter `Gauge<"label" | ...>` in the row: TypeScript does not
       * carry a row's label names into it, and without the type a wrong label passes until a scrape.
       */
      readonly collect?: (gauge: Gauge<L>) => Promise<void>;
    });

type LabelOf<D> = D extends Described<infer L> ? L : never;

/** The metric a row registers, typed by its label names; an absent row (an optional collector not given) registers none. */
export type RegisteredMetric<D> = D extends { readonly type: "counter" }
  ? Counter<LabelOf<D>>
  : D extends { readonly type: "histogram" }
    ? Histogram<LabelOf<D>>
    : D extends { readonly type: "gauge" }
      ? Gauge<LabelOf<D>>
      : undefined;

function register<L extends string>(registry: Registry, definition: MetricDefinition<L>): Counter<L> | Histogram<L> | Gauge<L> {
  const { name, help, labelNames } = definition;
  const registers = [registry];
  switch (definition.type) {
    case "counter":
      return new Counter({ name, help, labelNames, registers });
    case "histogram":
      return new Histogram({ name, help, labelNames, buckets: [...definition.buckets], registers });
    case "gauge": {
      const collect = definition.collect;
      if (collect === undefined) return new Gauge({ name, help, labelNames, registers });
      return new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          this.reset();
          await collect(this);
        },
      });
    }
  }
}

/**
 * Registers each row of `table`, in the table's order (the order of `/metrics`), and answers the
 * metrics under the rows' keys.
 */
export function registerMetrics<const T extends { readonly [key: string]: MetricDefinition | undefined }>(
  registry: Registry,
  table: T,
): { readonly [K in keyof T]: RegisteredMetric<T[K]> } {
  const metrics: Record<string, Counter | Histogram | Gauge | undefined> = {};
  for (const [key, definition] of Object.entries(table)) metrics[key] = definition && register(registry, definition);
  return metrics as { readonly [K in keyof T]: RegisteredMetric<T[K]> };
}
