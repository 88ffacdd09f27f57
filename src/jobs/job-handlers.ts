import type { Logger } from "pino";
import { AddOptionsRejected } from "../add-options/add-options-rejected.js";
import type { AddOptionsOutcome } from "../add-options/add-options-outcome.js";
import type { AddOptionsIntentStore } from "../add-options/add-options-intent-store.js";
import type { AddOptionsOutcomeStore } from "../add-options/add-options-outcome-store.js";
import { runAddOptionsBatch, type BatchRequest } from "../add-options/run-add-options-batch.js";
import type { RequestStats } from "../http/request-stats.js";
import { guardOf, namingOf, type ProjectRuntime } from "../project-runtime.js";
import type { Settings } from "../settings/settings-schema.js";
import { syncProject } from "../sync/sync-project.js";
import { exitCodeOf, EXIT_CODES, type SyncReport } from "../sync/sync-report.js";
import { isEmptyTargets } from "../domain/sync-targets.js";
import type { PimEventStore } from "../events/pim-event-store.js";
import { syncTargetsOf } from "../events/sync-targets-of.js";
import type { FullSyncProgress } from "./full-sync-progress.js";
import { syncWithHeldReview } from "../held/sync-with-held-review.js";
import { jobOrigin } from "../history/run-origin.js";
import type { JobData, ProjectJobName } from "./job-catalog.js";
import { PimSyncError } from "../errors/pim-sync-error.js";

export interface JobContext {
  readonly jobId: string;
  readonly runtime: ProjectRuntime;
  readonly settings: Settings;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** A line in the job's log (shown by `pim-sync jobs show`). */
  log(line: string): Promise<void>;
  /** Where a `--full` sync remembers, across its attempts, what it already replaced. */
  readonly fullSyncProgress?: FullSyncProgress;
  /** Merging of waiting add-options requests into this job's run; without it each runs alone. */
  readonly addOptionsBatching?: AddOptionsBatching;
  /** The targets PIM events left pending, for `sync.events` (src/events/). */
  readonly pimEvents?: PimEventBacklog;
}

export type PimEventBacklog = Pick<PimEventStore, "pending" | "settle">;

export interface AddOptionsBatching {
  /** The add-options requests waiting right behind this job (see peek-mergeable-add-options.ts). */
  peek(project: number, leaderId: string): Promise<BatchRequest[]>;
  readonly outcomes: AddOptionsOutcomeStore;
  /** What each request's runs were adding, so a retried or replayed run reports it truthfully. */
  readonly intents?: AddOptionsIntentStore;
}

/** An add-options job's result: its own outcome, and for the job that ran a batch, the batch. */
export type AddOptionsJobResult = AddOptionsOutcome & {
  readonly requests?: { readonly pim: RequestStats; readonly service: RequestStats };
  readonly batch?: { readonly requests: number; readonly left_to_run: number; readonly service_calls: number };
};

export interface SyncJobResult {
  readonly outcome: "done" | "held_back";
  /** For `sync.events`: the targets (attributes, reference entities) the run reconciled. */
  readonly targets?: number;
  readonly written: number;
  /** Options upserted and deleted in the collections written. */
  readonly upserts: number;
  readonly deletes: number;
  readonly unchanged: number;
  readonly heldBack: readonly { readonly collection: string; readonly names: number; readonly reason: string }[];
  readonly missing: readonly string[];
  readonly durationMs: number;
}

/**
 * A sync that could not finish everything: retried, and only what is left gets written; unless
 * every failure is one a retry would meet again (`permanent`), which fails the job at once.
 */
export class SyncIncomplete extends PimSyncError {
  readonly permanent: boolean;

  constructor(
    readonly failures: readonly string[],
    /** When an upstream said how long to wait (429/503 Retry-After). */
    retryAfterMs: number | null,
    permanentFailures: readonly string[] = [],
  ) {
    const permanent = failures.length > 0 && failures.every((failure) => permanentFailures.includes(failure));
    super(`sync incomplete: ${failures.join("; ")}`, { code: "SYNC_INCOMPLETE", retryable: !permanent, retryAfterMs: retryAfterMs ?? undefined });
    this.name = "SyncIncomplete";
    this.permanent = permanent;
  }
}

/** The job's result from the sync's report; SyncIncomplete when something is left to retry. */
async function syncResultOf(report: SyncReport, context: JobContext): Promise<SyncJobResult> {
  const written = report.collections.filter((c) => c.written).length;
  await context.log(`synced: ${written} collection(s) written, ${report.missing.length} missing, ${report.failures.length} failure(s)`);
  if (exitCodeOf(report) === EXIT_CODES.failure) throw new SyncIncomplete(report.failures, report.retryAfterMs, report.permanentFailures);
  return {
    outcome: exitCodeOf(report) === EXIT_CODES.heldBack ? "held_back" : "done",
    written,
    upserts: report.collections.reduce((sum, c) => sum + (c.written ? c.upserts : 0), 0),
    deletes: report.collections.reduce((sum, c) => sum + (c.written ? c.deletes : 0), 0),
    unchanged: report.collections.filter((c) => c.action === "none").length,
    heldBack: report.collections.flatMap((c) => (c.heldBack ? [{ collection: c.collection, names: c.heldBack.names.length, reason: c.heldBack.reason }] : [])),
    missing: report.missing.map((m) => m.collection),
    durationMs: report.durationMs,
  };
}

export type JobHandlers = { readonly [N in ProjectJobName]: (data: JobData<N>, context: JobContext) => Promise<unknown> };

/** Thin: parse is done, so call the core, log, and turn the report into a result or an error. */
export const JOB_HANDLERS: JobHandlers = {
  async "sync.run"(data, context): Promise<SyncJobResult> {
    const { runtime, settings } = context;
    const progress = data.full ? context.fullSyncProgress : undefined;
    const alreadyReplaced = (await progress?.replaced(data.project, context.jobId)) ?? new Set<string>();
    if (alreadyReplaced.size > 0) await context.log(`resuming a full sync: ${alreadyReplaced.size} collection(s) were replaced by an earlier attempt and get the difference only`);
    const origin = jobOrigin(data.project, context.jobId, data.trigger, data.requested_by);
    const review = { held: runtime.held, project: data.project, origin, expiryMs: settings.held_deletions.expiry_ms, dryRun: false, logger: context.logger };
    const report = await syncWithHeldReview(review, (approvedDeletions) =>
      syncProject(
        { pim: runtime.pim, service: runtime.service, state: runtime.state, history: runtime.history, logger: context.logger },
        {
          project: data.project,
          filters: { channels: runtime.project.channels, locales: runtime.project.locales },
          naming: namingOf(runtime.project),
          guard: guardOf(runtime.project),
          full: data.full,
          allowMassDelete: data.allow_mass_delete,
          dryRun: false,
          recentAdditionGraceMs: settings.add_options.recent_addition_grace_ms,
          signal: context.signal,
          alreadyReplaced,
          ...(progress ? { onReplaced: (collection: string) => progress.record(data.project, context.jobId, collection) } : {}),
          origin,
          approvedDeletions,
        },
      ),
    );
    const result = await syncResultOf(report, context);
    await progress?.clear(data.project, context.jobId);
    return result;
  },

  async "sync.events"(data, context): Promise<SyncJobResult> {
    const { runtime, settings } = context;
    if (!context.pimEvents) throw new Error("this worker keeps no PIM event backlog");
    const taken = await context.pimEvents.pending(data.project);
    const targets = syncTargetsOf(taken.keys());
    if (isEmptyTargets(targets)) {
      // A follow-up of a run that already took every target, or a redelivered event.
      await context.pimEvents.settle(data.project, taken);
      return { outcome: "done", targets: 0, written: 0, upserts: 0, deletes: 0, unchanged: 0, heldBack: [], missing: [], durationMs: 0 };
    }
    await context.log(`targeted sync of ${targets.attributes.length} attribute(s) and ${targets.referenceEntities.length} reference entit(ies)`);
    const report = await syncProject(
      { pim: runtime.pim, service: runtime.service, state: runtime.state, logger: context.logger },
      {
        project: data.project,
        filters: { channels: runtime.project.channels, locales: runtime.project.locales },
        naming: namingOf(runtime.project),
        guard: guardOf(runtime.project),
        full: false,
        allowMassDelete: false,
        dryRun: false,
        recentAdditionGraceMs: settings.add_options.recent_addition_grace_ms,
        signal: context.signal,
        targets,
      },
    );
    // Thrown before settling: a failed run leaves its targets pending for its retry.
    const result = await syncResultOf(report, context);
    await context.pimEvents.settle(data.project, taken);
    return { ...result, targets: taken.size };
  },

  async "options.add"(data, context): Promise<AddOptionsJobResult> {
    const { runtime, settings } = context;
    const batching = context.addOptionsBatching;
    // Carried out already, in the run of another job: report that outcome, without asking any
    // upstream again.
    const recorded = await batching?.outcomes.take(data.project, context.jobId);
    if (recorded) {
      await context.log(`carried out in the run of job ${recorded.merged_into ?? "?"}: ${recorded.status}`);
      if (recorded.status === "rejected") throw new AddOptionsRejected(recorded.reasons);
      return recorded;
    }
    const peeked = batching ? await batching.peek(data.project, context.jobId) : [];
    const requestedBy = new Map([{ id: context.jobId, request: data }, ...peeked].map(({ id, request }) => [id, request.requested_by] as const));
    const report = await runAddOptionsBatch(
      {
        pim: runtime.pim,
        service: runtime.service,
        state: runtime.state,
        logger: context.logger,
        catalog: runtime.catalog,
        ...(batching?.intents ? { intents: batching.intents } : {}),
        history: runtime.history,
        // Queued add-options requests come from the trigger endpoint or `pim-sync add-options` (queued): the job data does not tell which.
        originOf: (id) => jobOrigin(data.project, id, "api", requestedBy.get(id)),
      },
      {
        allowedAttributes: runtime.project.allowed_options_for_pim_attribute_addition,
        filters: { channels: runtime.project.channels, locales: runtime.project.locales },
        naming: namingOf(runtime.project),
      },
      [{ id: context.jobId, request: data }, ...peeked],
      {
        signal: context.signal,
        visibility: { attempts: settings.add_options.visibility_attempts, delayMs: settings.add_options.visibility_delay_ms },
      },
    );
    // One write, after every write it describes: a run killed before it leaves no outcome, and
    // its requests are carried out again (idempotently) by its retry or their own turns. This
    // job's own outcome is its result.
    await batching?.outcomes.recordAll(data.project, new Map([...report.outcomes].filter(([id]) => id !== context.jobId)));
    if (peeked.length > 0) await context.log(`merged ${peeked.length} waiting request(s): ${report.outcomes.size} with an outcome, ${report.undecided.size} left to run again, ${report.serviceCalls} service call(s)`);
    const undecided = report.undecided.get(context.jobId);
    if (undecided) throw undecided;
    const own = report.outcomes.get(context.jobId);
    if (!own) throw new Error("add-options: this job's request got no outcome");
    if (own.status === "rejected") throw new AddOptionsRejected(own.reasons);
    const added = own.collections.reduce((sum, c) => sum + c.added.length, 0);
    const skipped = own.collections.reduce((sum, c) => sum + c.skipped.length, 0);
    await context.log(`options added: ${added}, already there: ${skipped}, collections missing: ${own.missing.length}`);
    return { ...own, requests: report.requests, batch: { requests: 1 + peeked.length, left_to_run: report.undecided.size, service_calls: report.serviceCalls } };
  },
};
