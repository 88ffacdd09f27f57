import { readBudgetUsage, budgetsOfProjects } from "../../infra/budgets/budget-usage.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { FALLBACK_SCHEDULER_ID } from "../../infra/redis/queue-names.js";
import { readProjectJobStatus } from "../../jobs/admin/project-job-status.js";
import type { FleetSources } from "../../server/admin/fleet-overview.js";
import { redisPrefixOf } from "../../settings/redis-prefix-of.js";
import type { SurfaceParts } from "./surface-parts.js";

/** Where the operator console (`/admin/console`, served by the admin surface) reads each part of its overview. */
export function consoleSourcesOf(parts: SurfaceParts): FleetSources {
  const { settings, worker, redactor, review, state } = parts;
  const budgets = budgetsOfProjects(settings.projects);
  return {
    projects: settings.projects.map((project) => project.id),
    eventProjects: new Set(settings.projects.filter((project) => project.pim.events !== undefined).map((project) => project.id)),
    // Failure reasons are errors' messages: through the redactor, as every answer.
    jobStatus: async (project) => redactor.redactValue(await readProjectJobStatus(worker.queues, project)),
    lastEventAt: (project) => worker.pimEvents.lastEventAt(project),
    subscription: (project) => worker.subscriptions.read(project),
    fallbackEveryMs: async (project) => {
      const scheduler = await worker.queues.queueFor(project).getJobScheduler(FALLBACK_SCHEDULER_ID);
      return scheduler?.every === undefined || scheduler.every === null ? null : Number(scheduler.every);
    },
    held: (project) => review.held.list(project),
    // Read only, from the app's state store.
    optionLabels: async (project, collection, options) => {
      const wanted = new Set(options);
      const found = await state.readSome(project, collection, (name) => wanted.has(name));
      return options.map((option) => found?.entries.get(option) ?? null);
    },
    budgets: () => readBudgetUsage(worker.connection, keyspaceOf(worker.connection, redisPrefixOf(settings)), budgets),
  };
}
