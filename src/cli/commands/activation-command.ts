import { commandLogger } from "../command-logger.js";
import { readFile } from "node:fs/promises";
import type { ActivationRuntime } from "../../features/activation/activation-runtime.js";
import { withApp } from "../../app/with-app.js";
import { RecordFileError, parseJsonRecords } from "../../features/activation/parse-json-records.js";
import { pullOrders } from "../../features/activation/pull-orders.js";
import { putOffers } from "../../features/activation/put-offers.js";
import { fileAppendSink, streamSink } from "../../features/activation/stream-order-sink.js";
import { updateShipments } from "../../features/activation/update-shipments.js";
import type { Settings } from "../../settings/settings-schema.js";
import { EXIT_CODES } from "../../features/sync/sync-report.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { readCommandArgs, requireString, configPathOf } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";
import { OfferKeyError } from "../../features/activation/offer-key.js";
import { explainingUnknownConnection, UnknownConnection } from "../../features/activation/unknown-connection.js";
import { enqueueResend } from "./enqueue-activation-resend.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { messageOf } from "../../core/errors/message-of.js";

export const ACTIVATION_HELP = `Usage:
  pim-sync activation connections --config FILE [--json]
  pim-sync activation orders --config FILE --connection ID [--out FILE] [--all]
  pim-sync activation offers put --config FILE --connection ID --file FILE [--force]
  pim-sync activation shipments put --config FILE --connection ID --file FILE
  pim-sync activation refused --config FILE [--connection ID] [--json]
  pim-sync activation resend --config FILE --connection ID [--order ID]... [--json]

The Akeneo Activation API (the config's \`activation\` section; operations are BETA upstream).

  connections       the channel connections; --json prints the API's array unchanged
  orders            every page of a connection's orders; each order new or changed since the
                    last pull is written as one NDJSON line to --out FILE (appended) or stdout:
                    {"delivery_id", "connection", "order_id", "version", "order": <the API's
                    object>}. The state advances after the lines were written: delivery is at
                    least once, a repeat carries the same delivery_id. --all writes every order
                    and leaves the state alone.
  offers put        FILE: NDJSON or a JSON array of offer objects, sent unchanged in batches of
                    offers.batch_size; an offer whose content is the one last accepted for its
                    offers.key (default sku) is skipped unless --force
  shipments put     FILE: NDJSON or a JSON array of shipment objects, one PUT each
  refused           orders the worker's sink refused for good (set aside, the pull went on),
                    with the reason
  resend            asks the worker to send set-aside orders of a connection again (those
                    named by --order, or all), under their delivery ids

Exit codes: 0 done, 1 upstream failure (or a refused offer batch or shipment), 2 usage or config
error (an unknown connection too, with the known ones listed).

Options:
  --config FILE       configuration file with an \`activation\` section
                      (default: the PIM_SYNC_CONFIG environment variable)
  --connection ID     channel connection id (see \`activation connections\`)
  --order ID          a set-aside order to re-send (repeatable; all when left out)
  --json, --out FILE, --all, --file FILE, --force   as above
  -h, --help          show this help`;

async function loadActivationSettings(configPath: string, io: CliIo): Promise<Settings> {
  const settings = await loadCommandSettings(configPath, io);
  if (!settings.activation) throw new UsageError(`${configPath} has no \`activation\` section`, ACTIVATION_HELP);
  return settings;
}

async function withRuntime<T>(settings: Settings, io: CliIo, run: (runtime: ActivationRuntime) => Promise<T>): Promise<T> {
  const logger = commandLogger(settings);
  // The pull state's Redis is connected first, bounded by redis.connect_timeout_ms: a Redis
  // that is away ends the command with one line before the API is called.
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    const runtime = await app.activation();
    try {
      return await run(runtime);
    } catch (error) {
      // Bad input or a connection the account does not have: exit 2, like any usage error.
      if (error instanceof UnknownConnection || error instanceof OfferKeyError) throw new UsageError(error.message);
      throw error;
    }
  });
}

async function readRecords(path: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${messageOf(error)}`);
  }
  try {
    return parseJsonRecords(text, path);
  } catch (error) {
    if (error instanceof RecordFileError) throw new UsageError(error.message);
    throw error;
  }
}

function readActivationArgs(argv: readonly string[], io: CliIo) {
  return readCommandArgs(
    argv,
    io,
    {
      ...sharedOptions("config", "connection", "json"),
      out: { type: "string" },
      all: { type: "boolean" },
      file: { type: "string" },
      force: { type: "boolean" },
      order: { type: "string", multiple: true },
    },
    ACTIVATION_HELP,
  );
}

/** One `pim-sync activation …` command line, its settings loaded. */
interface ActivationInvocation {
  readonly settings: Settings;
  readonly io: CliIo;
  readonly values: NonNullable<ReturnType<typeof readActivationArgs>>["values"];
  /** `--connection` ("" for the commands that take none). */
  readonly connection: string;
  /** `--file` of the `… put` commands ("" for the others). */
  readonly file: string;
}

/**
 * Every subcommand and what runs it: a new one is a line here (and in the help), never a branch
 * another one falls through to.
 */
const SUBCOMMANDS: Readonly<Record<string, (call: ActivationInvocation) => Promise<number>>> = {
  refused({ settings, io, values }) {
    const only = typeof values.connection === "string" && values.connection !== "" ? values.connection : undefined;
    return withRuntime(settings, io, async (runtime) => {
      const refused = await runtime.state.refusedOrders(only);
      if (values.json) writeLine(io.stdout, JSON.stringify(refused));
      else if (refused.length === 0) writeLine(io.stdout, "no refused orders");
      else
        for (const entry of refused)
          writeLine(io.stdout, `${entry.connection}\t${entry.order_id}\t${entry.delivery_id}\t${entry.refused_at}\t${entry.reason}`);
      return EXIT_CODES.ok;
    });
  },

  resend: ({ settings, io, values, connection }) =>
    enqueueResend(settings, connection, values.order, io, { json: values.json === true, help: ACTIVATION_HELP }),

  connections({ settings, io, values }) {
    return withRuntime(settings, io, async (runtime) => {
      const list = await runtime.client.listConnections(io.signal);
      if (values.json) writeLine(io.stdout, JSON.stringify(list.raw));
      else if (list.connections.length === 0) writeLine(io.stdout, "no channel connections");
      else for (const c of list.connections) writeLine(io.stdout, `${c.id}\t${c.syndicationChannelCode ?? ""}\t${c.label ?? ""}`);
      return EXIT_CODES.ok;
    });
  },

  orders({ settings, io, values, connection }) {
    const sink = typeof values.out === "string" && values.out !== "" ? fileAppendSink(values.out) : streamSink(io.stdout);
    return withRuntime(settings, io, async (runtime) => {
      const report = await explainingUnknownConnection(
        runtime.client,
        connection,
        () =>
          pullOrders({ client: runtime.client, state: runtime.state, sink }, connection, { all: values.all === true, signal: io.signal }),
        io.signal,
      );
      for (const where of report.withoutId) writeLine(io.stderr, `order without id skipped (${where})`);
      writeLine(
        io.stderr,
        `connection ${connection}: ${report.emitted} order(s) written, ${report.unchanged} unchanged, ${report.withoutId.length} without id, ${report.pages} page(s)${values.all ? " (--all: state left as it was)" : ""}`,
      );
      return EXIT_CODES.ok;
    });
  },

  async "offers put"({ settings, io, values, connection, file }) {
    const records = await readRecords(file);
    return withRuntime(settings, io, async (runtime) => {
      const { report } = await explainingUnknownConnection(
        runtime.client,
        connection,
        () =>
          putOffers({ client: runtime.client, state: runtime.state }, connection, records, {
            batchSize: runtime.activation.offers.batch_size,
            force: values.force === true,
            keyField: runtime.activation.offers.key,
            signal: io.signal,
          }),
        io.signal,
      );
      writeLine(
        io.stdout,
        `offers: ${report.sent} sent, ${report.skipped} skipped (unchanged since last accepted), ${report.batches} batch(es)${report.failure ? ` of ${report.plannedBatches}` : ""}`,
      );
      if (report.failure) {
        writeLine(io.stderr, `stopped: ${report.failure} (the ${report.batches} batch(es) before it are recorded as accepted)`);
        return EXIT_CODES.failure;
      }
      return EXIT_CODES.ok;
    });
  },

  async "shipments put"({ settings, io, connection, file }) {
    const records = await readRecords(file);
    return withRuntime(settings, io, async (runtime) => {
      const { report } = await updateShipments({ client: runtime.client }, connection, records, { signal: io.signal });
      writeLine(
        io.stdout,
        `shipments: ${report.accepted} accepted, ${report.refused.length} refused${report.notSent > 0 ? `, ${report.notSent} not sent` : ""}`,
      );
      for (const refusal of report.refused) writeLine(io.stderr, `shipment ${refusal.index} refused: ${refusal.reason}`);
      if (report.failure) writeLine(io.stderr, `stopped: ${report.failure}`);
      return report.failure || report.refused.length > 0 ? EXIT_CODES.failure : EXIT_CODES.ok;
    });
  },
};

export async function runActivationCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readActivationArgs(argv, io);
  if (parsed === null) return EXIT_CODES.ok;
  const { values, positionals } = parsed;
  const what = positionals.join(" ");
  const run = Object.hasOwn(SUBCOMMANDS, what) ? SUBCOMMANDS[what] : undefined;
  if (run === undefined)
    throw new UsageError(
      what === ""
        ? "which activation command: connections, orders, offers put, shipments put, refused or resend"
        : `unknown activation command '${what}'`,
      ACTIVATION_HELP,
    );
  const configPath = configPathOf(values.config, io.env, ACTIVATION_HELP);
  const connection = what === "connections" || what === "refused" ? "" : requireString(values.connection, "--connection", ACTIVATION_HELP);
  const file = what.endsWith(" put") ? requireString(values.file, "--file", ACTIVATION_HELP) : "";
  const settings = await loadActivationSettings(configPath, io);
  return run({ settings, io, values, connection, file });
}
