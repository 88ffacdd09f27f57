import { createLogger } from "../log/create-logger.js";
import { guardOf, namingOf } from "../project-runtime.js";
import { findProject } from "../settings/find-project.js";
import { syncProject, type SyncInput } from "../sync/sync-project.js";
import type { SyncReport } from "../sync/sync-report.js";
import type { CliIo } from "./cli-io.js";
import { createProgressLine } from "./progress-line.js";
import { UsageError } from "./usage-error.js";
import { redactorOfSettings } from "../secrets/redactor-of-settings.js";
import { loadCommandSettings } from "./load-command-settings.js";
import { syncWithHeldReview } from "../held/sync-with-held-review.js";
import { cliOrigin } from "../history/run-origin.js";
import { withApp } from "../app/with-app.js";

/** Shared by `sync --once` and `plan`: settings → the app's project runtime (under the project's lock unless a dry run) → one syncProject call. */
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
  const project = findProject(settings, args.projectId);
  if (!project) {
    const known = settings.projects.map((p) => p.id).join(", ");
    throw new UsageError(`project ${args.projectId} is not in ${args.configPath} (configured: ${known})`, args.help);
  }
  const logger = createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings) });
  // A dry run writes nothing, so it needs no lock and may run beside a job.
  return withApp(settings, { logger, signal: args.io.signal }, async (app) => {
    const signal = args.dryRun ? args.io.signal : await app.lockProject(project.id, `sync --once of project ${project.id}`);
    const runtime = await app.project(project.id);
    const progress = createProgressLine(args.io.stderr);
    const origin = cliOrigin(args.dryRun ? "plan" : "sync");
    try {
      const review = {
        held: runtime.held,
        project: project.id,
        origin,
        expiryMs: settings.held_deletions.expiry_ms,
        dryRun: args.dryRun,
        logger,
      };
      return await syncWithHeldReview(review, (approvedDeletions) =>
        syncProject(
          { pim: runtime.pim, service: runtime.service, state: runtime.state, history: runtime.history, logger },
          {
            project: project.id,
            filters: { channels: project.channels, locales: project.locales },
            naming: namingOf(project),
            guard: guardOf(project),
            full: args.full,
            allowMassDelete: args.allowMassDelete,
            dryRun: args.dryRun,
            signal,
            recentAdditionGraceMs: settings.add_options.recent_addition_grace_ms,
            onProgress: ({ done, total, collection }) => progress.update(`[${done}/${total}] ${collection}`),
            origin,
            approvedDeletions,
            ...args.hooks,
          },
        ),
      );
    } finally {
      progress.done();
    }
  });
}
