import { configuredProject } from "../configured-project.js";
import { commandLogger } from "../command-logger.js";
import { eachHistoryEntry, queryHistory } from "../../stores/history/query-history.js";
import type { HistoryEntry } from "../../stores/history/history-entry.js";
import { parseSince } from "../../stores/history/parse-since.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { jsonText, writeJsonArray, writeWaiting } from "../json-output.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { withApp } from "../../app/with-app.js";
import { readCommandArgs, projectArgsOf } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";

/** Entries listed when `--limit` is not given: a first sync records one per option, a million for a large catalogue. */
export const DEFAULT_HISTORY_LIMIT = 100;

export const HISTORY_HELP = `Usage: pim-sync history --config FILE --project ID [--collection NAME] [--option NAME] [--since AGE]
                        [--limit N|all] [--json]

Lists the writes pim-sync made to the configuration service for a project, newest first: each
option added, relabelled, renamed, deleted or replaced, with its labels before and after, the
job and trigger of the run, the reason and the time. Kept for history.retention_ms (default 90
days), in Redis when the config names one, else under state_dir. Calls no upstream.

Options:
  --config FILE        configuration file (YAML or JSON)
                       (default: the PIM_SYNC_CONFIG environment variable)
  --project ID         configuration-service project id
  --collection NAME    only this collection (any case)
  --option NAME        only this option, in any case (a rename is found by its old spelling too)
  --since AGE          only writes this recent: 30m, 12h, 7d, 2w, or an ISO 8601 date
                       (default: everything kept)
  --limit N|all        the newest N entries (default ${DEFAULT_HISTORY_LIMIT}); stderr says when more are kept.
                       all: every entry kept, printed as it is read
  --json               one JSON array of entries (collection, option, kind, labels_before,
                       labels_after, reason, job, trigger, at, ...)
  -h, --help           show this help

Exit codes: 0 done, 1 failure, 2 usage or config error.`;

/** `--limit`: a positive whole number, or `all`. */
export function parseHistoryLimit(value: string | undefined, help: string): number | "all" {
  if (value === undefined) return DEFAULT_HISTORY_LIMIT;
  if (value === "all") return "all";
  const limit = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a positive whole number or 'all', got '${value}'`, help);
  return limit;
}

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
  const parsed = readCommandArgs(
    argv,
    io,
    {
      ...sharedOptions("config", "project", "limit", "json"),
      collection: { type: "string" },
      option: { type: "string" },
      since: { type: "string" },
    },
    HISTORY_HELP,
  );
  if (parsed === null) return 0;
  const { values } = parsed;
  const { configPath, projectId } = projectArgsOf(values, io.env, HISTORY_HELP);
  const limit = parseHistoryLimit(values.limit, HISTORY_HELP);
  let sinceMs = 0;
  if (values.since !== undefined) {
    const since = parseSince(values.since, Date.now());
    if ("error" in since) throw new UsageError(`--${since.error}`, HISTORY_HELP);
    sinceMs = since.sinceMs;
  }
  const settings = await loadCommandSettings(configPath, io);
  configuredProject(settings, projectId, configPath, HISTORY_HELP);
  const logger = commandLogger(settings);
  const query = { collection: values.collection, option: values.option, sinceMs };
  const none = `No write recorded for project ${projectId}${values.since === undefined ? "" : ` since ${values.since}`}.`;
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    const store = (await app.reviewStores()).history;
    if (limit === "all") {
      // Printed as read: a first sync of a large catalogue has a million entries.
      const entries = eachHistoryEntry(store, projectId, query);
      if (values.json) await writeJsonArray(io.stdout, entries, "snake", io.signal);
      else {
        let shown = 0;
        for await (const entry of entries) {
          io.signal?.throwIfAborted();
          await writeWaiting(io.stdout, `${entryLine(entry)}\n`, io.signal);
          shown += 1;
        }
        if (shown === 0) writeLine(io.stdout, none);
      }
      return 0;
    }
    const page = await queryHistory(store, projectId, { ...query, limit });
    if (values.json) writeLine(io.stdout, jsonText(page.entries));
    else if (page.entries.length === 0) writeLine(io.stdout, none);
    else for (const entry of page.entries) writeLine(io.stdout, entryLine(entry));
    // On stderr, so that stdout stays the entries alone (a --json array, lines to grep).
    if (page.next !== null)
      writeLine(
        io.stderr,
        `pim-sync history: showing the newest ${limit} entries; older ones are kept: --limit N for more, --limit all for every one, or narrow with --since, --collection or --option.`,
      );
    return 0;
  });
}
