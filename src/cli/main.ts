import { ConfigError } from "../settings/config-error.js";
import { ProjectScopeError } from "../features/sync/project-scope-error.js";
import { EXIT_CODES } from "../features/sync/sync-report.js";
import { writeLine, type CliIo } from "./cli-io.js";
import { UsageError } from "./usage-error.js";
import { closestName } from "./closest-name.js";
import { simulatorsFromClone } from "./simulators-from-clone.js";
import { packageVersion } from "../app/package-version.js";
import { jsonErrorText, type FailureKind } from "./json-error.js";
import { RedisUnavailableError } from "../infra/redis/redis-unavailable-error.js";
import { redactingIo } from "./redacting-io.js";
import { openTracing } from "../infra/telemetry/open-tracing.js";
import type { RunningTracing } from "../infra/telemetry/start-tracing.js";

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

/** How long a command's end waits for its last spans to be exported (a collector may be away). */
const TRACING_FLUSH_BOUND_MS = 5_000;

/**
 * Each command is loaded when it runs: `sync --once` should not pay at start for BullMQ, the
 * worker, the simulators or the Activation client it never uses (process start dominates the
 * short syncs' time, see docs/benchmarks.md).
 */
const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string }> = {
  sync: { load: async () => (await import("./commands/sync-command.js")).runSyncCommand, summary: "run one sync of a project (--once)" },
  plan: {
    load: async () => (await import("./commands/plan-command.js")).runPlanCommand,
    summary: "dry run: show the collections and the writes a sync would make",
  },
  worker: {
    load: async () => (await import("./commands/worker-command.js")).runWorkerCommand,
    summary: "run the queue worker: scheduled syncs, add-options jobs, trigger endpoint",
  },
  "add-options": {
    load: async () => (await import("./commands/add-options-command.js")).runAddOptionsCommand,
    summary: "add options to an allowlisted attribute (queued, or --once)",
  },
  enqueue: {
    load: async () => (await import("./commands/enqueue-command.js")).runEnqueueCommand,
    summary: "ask the worker for a sync (enqueue sync) or an Activation orders pull now",
  },
  activation: {
    load: async () => (await import("./commands/activation-command.js")).runActivationCommand,
    summary: "Activation API: connections, orders, offers put, shipments put",
  },
  events: {
    load: async () => (await import("./commands/events-command.js")).runEventsCommand,
    summary: "print the Akeneo Event Platform subscription a project needs, or create it (--create)",
  },
  history: {
    load: async () => (await import("./commands/history-command.js")).runHistoryCommand,
    summary: "list the writes made to the service (change history)",
  },
  held: {
    load: async () => (await import("./commands/held-command.js")).runHeldCommand,
    summary: "list deletions the guard held back; approve one (held approve)",
  },
  jobs: { load: async () => (await import("./commands/jobs-command.js")).runJobsCommand, summary: "list, show and replay jobs" },
  sim: {
    load: simulatorsFromClone(async () => (await import("./commands/sim-command.js")).runSimCommand),
    summary: "start the PIM and configuration-service simulators (from a clone)",
  },
  demo: {
    load: simulatorsFromClone(async () => (await import("./commands/demo-command.js")).runDemoCommand),
    summary: "simulators + two syncs, to see pim-sync work with nothing set up (from a clone)",
  },
};

/** Every command's name, as `pim-sync <command>` takes it (docs/cli.md must name each: test/integration/docs/docs-drift.test.ts). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export const MAIN_HELP = `Usage: pim-sync <command> [options]

Keeps the option collections of the configuration service in step with an Akeneo PIM.

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`)
  .join("\n")}

Run 'pim-sync <command> --help' for a command's options; 'pim-sync --version' for the version.`;

export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io = redactingIo(given);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    writeLine(io.stdout, MAIN_HELP);
    return name === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    writeLine(io.stdout, `pim-sync ${packageVersion()}`);
    return EXIT_CODES.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    const meant = closestName(name, Object.keys(COMMANDS));
    writeLine(io.stderr, `pim-sync: unknown command '${name}'${meant === undefined ? "" : ` (did you mean '${meant}'?)`}\n\n${MAIN_HELP}`);
    return EXIT_CODES.usage;
  }
  // Under --json a failure is also an object on stdout (see json-error.ts).
  const json = rest.includes("--json");
  const fail = (kind: FailureKind, message: string, exitCode: number, problems?: readonly string[]): number => {
    if (json) writeLine(io.stdout, jsonErrorText({ kind, message, exitCode, problems }));
    return exitCode;
  };
  let tracing: RunningTracing | null = null;
  try {
    // Before the command's modules load, so that the HTTP instrumentation is in place before
    // fastify takes `http`. Off (no OTEL_* endpoint), nothing of OpenTelemetry is loaded.
    tracing = await openTracing(io.env);
    const run = await command.load();
    return await run(rest, tracing ? tracedIo(io, tracing) : io);
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `pim-sync ${name}: ${error.message}${error.help && !json ? `\n\n${error.help}` : ""}`);
      return fail("usage", error.message, EXIT_CODES.usage);
    }
    if (error instanceof ConfigError || error instanceof ProjectScopeError) {
      writeLine(io.stderr, `pim-sync ${name}: ${error.message}`);
      return fail("config", error.message, EXIT_CODES.usage, error.problems);
    }
    const message = error instanceof Error ? error.message : String(error);
    writeLine(io.stderr, `pim-sync ${name}: failed: ${message}`);
    const kind = error instanceof RedisUnavailableError ? "redis_unavailable" : io.signal?.aborted ? "interrupted" : "failure";
    return fail(kind, message, EXIT_CODES.failure);
  } finally {
    // After the command has stopped (a worker: after SIGTERM's orderly stop), so its last spans,
    // the jobs it finished, are in the batch that is flushed here.
    if (tracing) await flushTracing(tracing);
  }
}

/** The config's secrets go to the span redaction too (see RedactingSpanProcessor). */
function tracedIo(io: CliIo, tracing: RunningTracing): CliIo {
  return {
    ...io,
    useRedactor(redactor) {
      io.useRedactor?.(redactor);
      tracing.useRedactor(redactor);
    },
  };
}

async function flushTracing(tracing: RunningTracing): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, TRACING_FLUSH_BOUND_MS);
  });
  try {
    // An export that fails is the SDK's to report (OTEL_LOG_LEVEL); the command's outcome stands.
    await Promise.race([tracing.shutdown().catch(() => undefined), bound]);
  } finally {
    clearTimeout(timer);
  }
}
