import type { Logger } from "pino";
import type { HistoryStore } from "../../../stores/history/history-store.js";
import type { RunOrigin } from "../../../stores/history/run-origin.js";
import { guardOf, namingOf } from "../../../settings/project-sync-settings-of.js";
import type { ProjectSettings, Settings } from "../../../settings/settings-schema.js";
import type { SyncTargets } from "../../../core/domain/sync-targets.js";
import { syncProject, type SyncDeps, type SyncInput } from "../sync-project.js";
import type { SyncReport } from "../sync-report.js";
import type { HeldStore } from "./held-store.js";

/** What one project's sync reads and writes through: a ProjectRuntime has them all. */
export interface ReviewedSyncParts {
  readonly project: ProjectSettings;
  readonly pim: SyncDeps["pim"];
  readonly service: SyncDeps["service"];
  readonly state: SyncDeps["state"];
  readonly history: HistoryStore;
  readonly held: HeldStore;
}

/** What the caller decides about a run; everything else comes from the project's settings. */
export interface ReviewedSyncRequest extends Pick<
  SyncInput,
  "alreadyReplaced" | "onReplaced" | "onProgress" | "onCollection" | "onFields" | "signal"
> {
  readonly origin: RunOrigin;
  readonly full: boolean;
  readonly allowMassDelete: boolean;
  readonly dryRun: boolean;
  /** A targeted sync (PIM events); a whole one when left out. */
  readonly targets?: SyncTargets;
}

/**
 * The one way a project is synced, whoever asks (a schedule, a trigger, the CLI, the demo, an
 * admin's replay, PIM events): the project's naming, filters and deletion guard (counted across
 * runs), every accepted write in the change history under the run's origin, the approved held
 * deletions carried out and this run's held deletions kept for review. No caller assembles these
 * steps itself, so none can leave one out.
 */
export function runReviewedSync(
  parts: ReviewedSyncParts,
  settings: Pick<Settings, "held_deletions" | "add_options">,
  logger: Logger,
  request: ReviewedSyncRequest,
): Promise<SyncReport> {
  const { project } = parts;
  const { targets, ...hooks } = request;
  return syncProject(
    { pim: parts.pim, service: parts.service, state: parts.state, history: parts.history, held: parts.held, logger },
    {
      ...hooks,
      project: project.id,
      filters: { channels: project.channels, locales: project.locales },
      naming: namingOf(project),
      guard: guardOf(project),
      recentAdditionGraceMs: settings.add_options.recent_addition_grace_ms,
      heldExpiryMs: settings.held_deletions.expiry_ms,
      ...(targets ? { targets } : {}),
    },
  );
}
