import { triggerRoutes } from "../../server/trigger/trigger-routes.js";
import { defineHttpSurface } from "./http-surface.js";

/**
 * The trigger routes (`/v1/...`: sync, add-options, the Activation routes, job status), behind
 * `trigger.token`; served when `trigger` is configured. Gated: they queue jobs and ask the
 * started worker for a project's locales.
 */
export const triggerSurface = defineHttpSurface({
  name: "trigger",
  gated: true,
  deps(parts) {
    const { settings, worker, redactor } = parts;
    if (!settings.trigger) return null;
    return {
      token: settings.trigger.token,
      gate: parts.gate("trigger"),
      queues: worker.queues,
      projects: settings.projects,
      logger: parts.logger,
      redisTimeoutMs: parts.listen.redis_timeout_ms,
      activation: worker.activation
        ? {
            queue: worker.activation.queue,
            client: worker.activation.runtime.client,
            offerKey: worker.activation.runtime.activation.offers.key,
          }
        : undefined,
      projectLocales: (project: number, recheck: boolean) => worker.projectLocales(project, recheck),
      jobDetails: (ref: string) => parts.jobAdmin.show(ref),
      jobFinalStatus: async (project: number, id: string) => redactor.redactValue(await worker.finalStatuses.read(project, id)),
      jsonKeys: parts.jsonKeys,
    };
  },
  async register(scope, deps) {
    await scope.register(triggerRoutes, deps);
  },
});
