import { configuredProject } from "../configured-project.js";
import { commandLogger } from "../command-logger.js";
import { userInfo } from "node:os";
import { approveHeldPlan } from "../../features/sync/held/approve-held-plan.js";
import { dismissHeldPlan } from "../../features/sync/held/dismiss-held-plan.js";
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
       pim-sync held dismiss --config FILE --project ID --id ID [--json]

Deletions the deletion guard held back, kept for review. 'held' lists the project's held plans
(each with an id, its collections and options, why and when they were held, by which run, when
it expires, and whether it is approved). 'held approve' approves one: the next sync deletes
exactly the approved options the PIM still lacks, and holds again any other deletion the guard
stops. 'held dismiss' refuses one (pending or approved): its options stay in the service, each
with a 'kept' entry in the change history naming you, and the plan goes; a later run that still
finds them missing from the PIM decides again and may hold them again. A pending plan expires
after held_deletions.expiry_ms (default 7 days); an approved one waits for the run that carries
it out. Calls no upstream.

Options:
  --config FILE      configuration file (YAML or JSON)
                     (default: the PIM_SYNC_CONFIG environment variable)
  --project ID       configuration-service project id
  --id ID            the held plan to approve or dismiss (from 'pim-sync held')
  --json             JSON on stdout: the array of held plans, or the approved or dismissed plan
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

/** Who approves or dismisses from the CLI: the operating-system user, so the plan and the history say who it was. */
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
  if (extra.length > 0 || (action !== undefined && action !== "approve" && action !== "dismiss"))
    throw new UsageError(`unknown arguments: ${positionals.join(" ")} (only 'approve' or 'dismiss' follows 'held')`, HELD_HELP);
  const { configPath, projectId } = projectArgsOf(values, io.env, HELD_HELP);
  const id = action === undefined ? undefined : requireString(values.id, "--id", HELD_HELP);
  if (action === undefined && values.id !== undefined) throw new UsageError("--id goes with 'held approve' or 'held dismiss'", HELD_HELP);
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
    if (action === "dismiss") {
      const dismissed = await dismissHeldPlan({
        held: stores.held,
        history: stores.history,
        project: projectId,
        id,
        by: cliApprover(),
        trigger: "cli",
      });
      if (!("dismissed" in dismissed)) return refused(io, "dismiss", dismissed, values.json === true);
      if (values.json) writeLine(io.stdout, jsonText(dismissed.dismissed));
      else
        writeLine(
          io.stdout,
          [
            `Dismissed: these options stay in the service (each recorded as kept in the history); a later sync that still finds them missing from the PIM decides again.`,
            ...planLines(dismissed.dismissed),
          ].join("\n"),
        );
      return 0;
    }
    const result = await approveHeldPlan(stores.held, projectId, id, cliApprover());
    if (!("approved" in result)) return refused(io, "approve", result, values.json === true);
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

/** A plan that is not there, or kept changing: said on stderr (and as JSON with --json); exit 1. */
function refused(
  io: CliIo,
  action: "approve" | "dismiss",
  result: { readonly notFound: string } | { readonly conflict: string },
  json: boolean,
): number {
  const [kind, message] = "notFound" in result ? (["not_found", result.notFound] as const) : (["conflict", result.conflict] as const);
  writeLine(io.stderr, `pim-sync held ${action}: ${message}`);
  if (json) writeLine(io.stdout, jsonText({ error: { kind, message } }));
  return 1;
}
