import { AddOptionsRejected } from "../../features/add-options/add-options-rejected.js";
import type { AddOptionsOutcome } from "../../features/add-options/add-options-outcome.js";
import type { AddOptionsRequest } from "../../features/add-options/add-options-request.js";
import { runAddOptionsBatch } from "../../features/add-options/run-add-options-batch.js";
import { jobOrigin } from "../../stores/history/run-origin.js";
import type { RequestStats } from "../../infra/http/request-stats.js";
import { namingOf } from "../../settings/project-sync-settings-of.js";
import { createAddOptionsIntentStore, type AddOptionsIntentStore } from "../../features/add-options/add-options-intent-store.js";
import { createAddOptionsOutcomeStore, type AddOptionsOutcomeStore } from "../../features/add-options/add-options-outcome-store.js";
import type { BatchRequest } from "../../features/add-options/run-add-options-batch.js";
import type { JobInfrastructure } from "./job-infrastructure.js";
import type { JobContext } from "./job-context.js";
import { peekMergeableAddOptions } from "./peek-mergeable-add-options.js";

/** An add-options job's result: its own outcome, and for the job that ran a batch, the batch. */
export type AddOptionsJobResult = AddOptionsOutcome & {
  readonly requests?: { readonly pim: RequestStats; readonly service: RequestStats };
  readonly batch?: { readonly requests: number; readonly left_to_run: number; readonly service_calls: number };
};

/** Merging of waiting add-options requests into one job's run. */
export interface AddOptionsBatching {
  /** The add-options requests waiting right behind this job (see peek-mergeable-add-options.ts). */
  peek(project: number, leaderId: string): Promise<BatchRequest[]>;
  readonly outcomes: AddOptionsOutcomeStore;
  /** What each request's runs were adding, so a retried or replayed run reports it truthfully. */
  readonly intents: AddOptionsIntentStore;
}

/** What an `options.add` job needs beyond its context. */
export interface AddOptionsDeps {
  /** Without it (a handler called outside a worker), each request runs alone. */
  readonly addOptionsBatching?: AddOptionsBatching;
}

export function addOptionsDeps(infra: JobInfrastructure): AddOptionsDeps {
  const outcomes = createAddOptionsOutcomeStore(infra.redis, infra.prefix);
  return {
    addOptionsBatching: {
      outcomes,
      intents: createAddOptionsIntentStore(infra.redis, infra.prefix),
      peek: (project, leaderId) => peekMergeableAddOptions({ queue: infra.queueFor(project), project, leaderId, outcomes }),
    },
  };
}

/**
 * One add-options request, and the requests waiting right behind it (merged into one run), or
 * the outcome an earlier run of another job recorded for it.
 */
export async function runAddOptionsJob(
  data: AddOptionsRequest,
  context: JobContext & { readonly deps: AddOptionsDeps },
): Promise<AddOptionsJobResult> {
  const { runtime, settings } = context;
  const batching = context.jobId === "" ? undefined : context.deps.addOptionsBatching;
  // Carried out already, in the run of another job: report that outcome, without asking any
  // upstream again.
  const recorded = await batching?.outcomes.take(data.project, context.jobId);
  if (recorded) {
    await context.log(`carried out in the run of job ${recorded.merged_into ?? "?"}: ${recorded.status}`);
    if (recorded.status === "rejected") throw new AddOptionsRejected(recorded.reasons);
    return recorded;
  }
  const peeked = batching ? await batching.peek(data.project, context.jobId) : [];
  const requestedBy = new Map(
    [{ id: context.jobId, request: data }, ...peeked].map(({ id, request }) => [id, request.requested_by] as const),
  );
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
  if (peeked.length > 0)
    await context.log(
      `merged ${peeked.length} waiting request(s): ${report.outcomes.size} with an outcome, ${report.undecided.size} left to run again, ${report.serviceCalls} service call(s)`,
    );
  const undecided = report.undecided.get(context.jobId);
  if (undecided) throw undecided;
  const own = report.outcomes.get(context.jobId);
  if (!own) throw new Error("add-options: this job's request got no outcome");
  if (own.status === "rejected") throw new AddOptionsRejected(own.reasons);
  const added = own.collections.reduce((sum, c) => sum + c.added.length, 0);
  const skipped = own.collections.reduce((sum, c) => sum + c.skipped.length, 0);
  await context.log(`options added: ${added}, already there: ${skipped}, collections missing: ${own.missing.length}`);
  return {
    ...own,
    requests: report.requests,
    batch: { requests: 1 + peeked.length, left_to_run: report.undecided.size, service_calls: report.serviceCalls },
  };
}
