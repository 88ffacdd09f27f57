import { findProject } from "../../project-runtime.js";
import { allHistory } from "../../history/query-history.js";
import type { HistoryEntry } from "../../history/history-entry.js";
import { parseSince } from "../../history/parse-since.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { JSON_KEYS_OPTION, jsonText, parseJsonKeyStyle } from "../json-output.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { withApp } from "../../app/with-app.js";
import { createLogger } from "../../log/create-logger.js";
import { redactorOfSettings } from "../../secrets/redactor-of-settings.js";
import { parseCommandArgs, parseProjectId, configPathOf } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const HISTORY_HELP = `Usage: pim-sync history --config FILE --project ID [--collection NAME] [--option NAME] [--since AGE] [--json]

Lists the writes pim-sync made to the configuration service for a project, newest first: each
option added, relabelled, renamed, deleted or replaced, with its labels before and after, the
job and trigger of the run, the reason and the time. Kept for history.retention_ms (default 90
days), in Redis when the config names one, else under state_dir. Calls no upstream.

Options:
  --config FILE        configuration file (YAML or JSON)
                       (default: the PIM_SYNC_CONFIG environment variable)
  --project ID         configuration-service project id
  --collection NAME    only this collection
  --option NAME        only this option (a rename is found by its old spelling too)
  --since AGE          only writes this recent: 30m, 12h, 7d, 2w, or an ISO 8601 date
                       (default: everything kept)
  --json               one JSON array of entries (collection, option, kind, labels_before,
                       labels_after, reason, job, trigger, at, ...)
  --json-keys camel    the camelCase keys of earlier versions (kept for one release)
  -h, --help           show this help

Exit codes: 0 done, 1 failure, 2 usage or config error.`;

function labelsText(labels: HistoryEntry["labelsBefore"]): string {
  return labels === null
    ? "-"
    : Object.entries(labels)
        .map(([locale, text]) => `${locale}=${JSON.stringify(text)}`)
        .join(" ") || "{}";
}

function entryLine(entry: HistoryEntry): string {
  const labels =
    entry.kind === "deleted"
      ? labelsText(entry.labelsBefore)
      : entry.labelsBefore === null && entry.labelsAfter === null
        ? "(labels not recorded: unchanged, or a first sync's)"
        : entry.labelsBefore === null
          ? labelsText(entry.labelsAfter)
          : `${labelsText(entry.labelsBefore)} -> ${labelsText(entry.labelsAfter)}`;
  const by = entry.requestedBy === undefined ? "" : ` by ${entry.requestedBy}`;
  return `${entry.at}  ${entry.kind.padEnd(10)} ${entry.collection} / ${entry.option}  ${labels}\n    ${entry.reason} (job ${entry.job}, ${entry.trigger}${by})`;
}

export async function runHistoryCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      config: { type: "string" },
      project: { type: "string" },
      collection: { type: "string" },
      option: { type: "string" },
      since: { type: "string" },
      json: { type: "boolean" },
      ...JSON_KEYS_OPTION,
    },
    HISTORY_HELP,
  );
  if (values.help) {
    writeLine(io.stdout, HISTORY_HELP);
    return 0;
  }
  const keyStyle = parseJsonKeyStyle(values["json-keys"], HISTORY_HELP);
  const configPath = configPathOf(values.config, io.env, HISTORY_HELP);
  const projectId = parseProjectId(values.project, HISTORY_HELP);
  let sinceMs = 0;
  if (values.since !== undefined) {
    const since = parseSince(values.since, Date.now());
    if ("error" in since) throw new UsageError(`--${since.error}`, HISTORY_HELP);
    sinceMs = since.sinceMs;
  }
  const settings = await loadCommandSettings(configPath, io);
  if (!findProject(settings, projectId))
    throw new UsageError(
      `project ${projectId} is not in ${configPath} (configured: ${settings.projects.map((p) => p.id).join(", ")})`,
      HISTORY_HELP,
    );
  const logger = createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings) });
  const entries = await withApp(settings, { logger, signal: io.signal }, async (app) =>
    allHistory((await app.reviewStores()).history, projectId, { collection: values.collection, option: values.option, sinceMs }),
  );
  if (values.json) writeLine(io.stdout, jsonText(entries, keyStyle));
  else if (entries.length === 0)
    writeLine(io.stdout, `No write recorded for project ${projectId}${values.since === undefined ? "" : ` since ${values.since}`}.`);
  else for (const entry of entries) writeLine(io.stdout, entryLine(entry));
  return 0;
}
