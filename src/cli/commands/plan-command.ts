import type { SelectField, ServiceOption } from "../../core/domain/option-collection.js";
import type { CollectionPlan } from "../../core/reconcile/collection-plan.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { readCommandArgs, projectArgsOf } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { renderSyncReport } from "../render-sync-report.js";
import { runProjectSync } from "../run-project-sync.js";
import { jsonText, parseJsonKeyStyle } from "../json-output.js";

export const PLAN_HELP = `Usage: pim-sync plan --config FILE --project ID [--full] [--json]

Dry run: reads the PIM and the configuration service, derives the collections and plans the
writes a sync would make. Writes nothing (neither the service nor the state).

Options:
  --config FILE     configuration file (YAML or JSON)
                    (default: the PIM_SYNC_CONFIG environment variable)
  --project ID      configuration-service project id
  --full            plan a full replace of every collection
  --json            print { collections: [{name, options: [{name, label}]}], fields: [...],
                    operations: [...], missing, unsupported, failures } on stdout
  -h, --help        show this help

Exit codes: 0 done, 1 failure, 2 usage or config error, 3 the sync would hold deletions back.`;

export async function runPlanCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(argv, io, sharedOptions("config", "project", "full", "json", "json-keys"), PLAN_HELP);
  if (parsed === null) return 0;
  const { values } = parsed;
  const keyStyle = parseJsonKeyStyle(values["json-keys"], PLAN_HELP, io.stderr);
  const collections: { name: string; options: readonly ServiceOption[] }[] = [];
  const operations: ReturnType<typeof toOperation>[] = [];
  let fields: readonly SelectField[] = [];
  const report = await runProjectSync({
    io,
    ...projectArgsOf(values, io.env, PLAN_HELP),
    help: PLAN_HELP,
    full: values.full === true,
    allowMassDelete: false,
    dryRun: true,
    hooks: {
      onFields: (derived) => {
        fields = derived;
      },
      onCollection: (collection, plan) => {
        collections.push({ name: collection.spec.name, options: collection.options });
        operations.push(toOperation(plan));
      },
    },
  });
  const byName = (a: { name?: string; collection?: string }, b: { name?: string; collection?: string }): number =>
    (a.name ?? a.collection ?? "").localeCompare(b.name ?? b.collection ?? "");
  if (values.json) {
    const output = {
      project: report.project,
      collections: collections.sort(byName),
      fields,
      operations: operations.sort(byName),
      missing: report.missing,
      unsupported: report.unsupported,
      failures: report.failures,
      requests: report.requests,
    };
    writeLine(io.stdout, jsonText(output, keyStyle));
  } else {
    writeLine(io.stdout, renderSyncReport(report));
  }
  const { exitCodeOf } = await import("../../features/sync/sync-report.js");
  return exitCodeOf(report);
}

function toOperation(plan: CollectionPlan) {
  return {
    collection: plan.collection,
    action: plan.action,
    reason: plan.reason,
    delete_all: plan.action === "replace",
    upsert_options: [...(plan.renames ?? []).map((rename) => rename.option), ...plan.upserts],
    delete_options: [...(plan.renames ?? []).flatMap((rename) => rename.from), ...plan.deletes],
    renames: (plan.renames ?? []).map((rename) => ({ from: rename.from, to: rename.option.name })),
    held_back: plan.heldBack,
  };
}
