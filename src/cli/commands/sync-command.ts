import { exitCodeOf } from "../../features/sync/sync-report.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { readCommandArgs, projectArgsOf } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { renderSyncReport } from "../render-sync-report.js";
import { runProjectSync } from "../run-project-sync.js";
import { UsageError } from "../usage-error.js";
import { jsonText, parseJsonKeyStyle } from "../json-output.js";

export const SYNC_HELP = `Usage: pim-sync sync --config FILE --project ID --once [options]

Reads the PIM catalogue structure, derives the select fields and option collections, and
writes what changed since the last sync into the configuration service.

Options:
  --config FILE          configuration file (YAML or JSON)
                         (default: the PIM_SYNC_CONFIG environment variable)
  --project ID           configuration-service project id, as in the config file
  --once                 run one sync in this process (state in Redis if configured, else files
                         under state_dir)
  --full                 replace every collection (delete_all + all options) instead of sending
                         differences; the deletion guard still applies
  --allow-mass-delete    apply deletions the guard would hold back (not those a pending
                         held plan already holds: approve the plan)
  --json                 print the report as JSON on stdout (snake_case keys; on failure
                         {"error": {...}})
  --json-keys camel      the camelCase keys of earlier versions (deprecated: removed in 0.3.0)
  -h, --help             show this help

Exit codes: 0 done, 1 failure, 2 usage or config error, 3 deletions held back by the guard.`;

export async function runSyncCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(
    argv,
    io,
    sharedOptions("config", "project", "once", "full", "allow-mass-delete", "json", "json-keys"),
    SYNC_HELP,
  );
  if (parsed === null) return 0;
  const { values } = parsed;
  const keyStyle = parseJsonKeyStyle(values["json-keys"], SYNC_HELP, io.stderr);
  const { configPath, projectId } = projectArgsOf(values, io.env, SYNC_HELP);
  if (!values.once) {
    throw new UsageError("--once is required: queued syncs run in the worker (`pim-sync enqueue sync`)", SYNC_HELP);
  }
  const report = await runProjectSync({
    io,
    configPath,
    projectId,
    help: SYNC_HELP,
    full: values.full === true,
    allowMassDelete: values["allow-mass-delete"] === true,
    dryRun: false,
  });
  writeLine(io.stdout, values.json ? jsonText(report, keyStyle) : renderSyncReport(report));
  return exitCodeOf(report);
}
