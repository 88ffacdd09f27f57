import { configuredProject } from "./configured-project.js";
import { commandLogger } from "./command-logger.js";
import type { SyncInput } from "../features/sync/sync-project.js";
import type { SyncReport } from "../features/sync/sync-report.js";
import type { CliIo } from "./cli-io.js";
import { createProgressLine } from "./progress-line.js";
import { loadCommandSettings } from "./load-command-settings.js";
import { runReviewedSync } from "../features/sync/held/run-reviewed-sync.js";
import { cliOrigin } from "../stores/history/run-origin.js";
import { withApp } from "../app/with-app.js";

/** Shared by `sync --once` and `plan`: settings → the app's project runtime (under the project's lock unless a dry run) → the one sync path (runReviewedSync). */
export async function runProjectSync(args: {
  readonly io: CliIo;
  readonly configPath: string;
  readonly projectId: number;
  readonly help: string;
  readonly full: boolean;
  readonly allowMassDelete: boolean;
  readonly dryRun: boolean;
  readonly hooks?: Pick<SyncInput, "onCollection" | "onFields">;
}): Promise<SyncReport> {
  const settings = await loadCommandSettings(args.configPath, args.io);
  const project = configuredProject(settings, args.projectId, args.configPath, args.help);
  const logger = commandLogger(settings);
  // A dry run writes nothing, so it needs no lock and may run beside a job.
  return withApp(settings, { logger, signal: args.io.signal }, async (app) => {
    const signal = args.dryRun ? args.io.signal : await app.lockProject(project.id, `sync --once of project ${project.id}`);
    const runtime = await app.project(project.id);
    const progress = createProgressLine(args.io.stderr);
    const origin = cliOrigin(args.dryRun ? "plan" : "sync");
    try {
      return await runReviewedSync(runtime, settings, logger, {
        origin,
        full: args.full,
        allowMassDelete: args.allowMassDelete,
        dryRun: args.dryRun,
        signal,
        onProgress: ({ done, total, collection }) => progress.update(`[${done}/${total}] ${collection}`),
        ...args.hooks,
      });
    } finally {
      progress.done();
    }
  });
}
