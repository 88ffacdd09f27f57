import { configuredProject } from "../configured-project.js";
import { commandLogger } from "../command-logger.js";
import { userInfo } from "node:os";
import { approveHeldPlan } from "../../features/sync/held/approve-held-plan.js";
import { heldOptionCount, type HeldPlan } from "../../features/sync/held/held-plan.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { jsonText } from "../json-output.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { withApp } from "../../app/with-app.js";
import { readCommandArgs, projectArgsOf, requireString } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";

export const HELD_HELP = `Usage: pim-sync held --config FILE --project ID [--json]
       pim-sync held approve --config FILE --project ID --id ID [--json]

Deletions the deletion guard held back, kept for review. 'held' lists the project's held plans
(each with an id, its collections and options, why and when they were held, by which run, when
it expires, and whether it is approved). 'held approve' approves one: the next sync deletes
exactly the approved options the PIM still lacks, and holds again any other deletion the guard
stops. A pending plan expires after held_deletions.expiry_ms (default 7 days); an approved one
waits for the run that carries it out. Calls no upstream.

Options:
  --config FILE      configuration file (YAML or JSON)
                     (default: the PIM_SYNC_CONFIG environment variable)
  --project ID       configuration-service project id
  --id ID            the held plan to approve (from 'pim-sync held')
  --json             JSON on stdout: the array of held plans, or the approved plan
  -h, --help         show this help

Exit codes: 0 done, 1 failure (no such held plan), 2 usage or config error.`;

function planLines(plan: HeldPlan): string[] {
  const status = plan.approved === null ? "pending" : `approved by ${plan.approved.by} at ${plan.approved.at}`;
  const lines = [
    `${plan.id}: ${heldOptionCount(plan)} option(s), held at ${plan.lastHeldAt} by job ${plan.run.job} (${plan.run.trigger}), ${plan.approved === null ? `expires ${plan.expiresAt}, ` : ""}${status}`,
  ];
  for (const collection of plan.collections)
    lines.push(`  ${collection.collection}: ${collection.reason}`, `    ${collection.options.join(", ")}`);
  return lines;
}

/** Who approves from the CLI: the operating-system user, so the plan says who it was. */
function cliApprover(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli";
  }
}

export async function runHeldCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(argv, io, { ...sharedOptions("config", "project", "json"), id: { type: "string" } }, HELD_HELP);
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const [action, ...extra] = positionals;
  if (extra.length > 0 || (action !== undefined && action !== "approve"))
    throw new UsageError(`unknown arguments: ${positionals.join(" ")} (only 'approve' follows 'held')`, HELD_HELP);
  const { configPath, projectId } = projectArgsOf(values, io.env, HELD_HELP);
  const id = action === "approve" ? requireString(values.id, "--id", HELD_HELP) : undefined;
  if (action === undefined && values.id !== undefined) throw new UsageError("--id goes with 'held approve'", HELD_HELP);
  const settings = await loadCommandSettings(configPath, io);
  configuredProject(settings, projectId, configPath, HELD_HELP);
  const logger = commandLogger(settings);
  return withApp(settings, { logger, signal: io.signal }, async (app) => {
    const stores = await app.reviewStores();
    if (id === undefined) {
      const plans = await stores.held.list(projectId);
      if (values.json) writeLine(io.stdout, jsonText(plans));
      else writeLine(io.stdout, plans.length === 0 ? `No held deletions in project ${projectId}.` : plans.flatMap(planLines).join("\n"));
      return 0;
    }
    const result = await approveHeldPlan(stores.held, projectId, id, cliApprover());
    if ("notFound" in result) {
      writeLine(io.stderr, `pim-sync held approve: ${result.notFound}`);
      if (values.json) writeLine(io.stdout, jsonText({ error: { kind: "not_found", message: result.notFound } }));
      return 1;
    }
    if ("conflict" in result) {
      writeLine(io.stderr, `pim-sync held approve: ${result.conflict}`);
      if (values.json) writeLine(io.stdout, jsonText({ error: { kind: "conflict", message: result.conflict } }));
      return 1;
    }
    if (values.json) writeLine(io.stdout, jsonText(result.approved));
    else
      writeLine(
        io.stdout,
        [
          `Approved: the next sync of project ${projectId} deletes these options (those the PIM still lacks).`,
          ...planLines(result.approved),
        ].join("\n"),
      );
    return 0;
  });
}
