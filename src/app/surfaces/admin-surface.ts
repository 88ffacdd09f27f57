import { consoleSourcesOf } from "./console-sources.js";
import { defineHttpSurface } from "./http-surface.js";

/**
 * The dashboard (`/admin`), the admin API (`/admin/api/...`) and the operator console
 * (`/admin/console`), behind the admin users of `server.admin`: one scope, one authentication
 * and one route table for the three (src/server/admin/). Gated: they read and change the jobs.
 */
export const adminSurface = defineHttpSurface({
  name: "admin",
  gated: true,
  deps(parts) {
    const { listen, worker } = parts;
    if (!listen.admin) return null;
    return {
      users: listen.admin.users,
      admin: parts.jobAdmin,
      queues: worker.queues,
      review: parts.review,
      logger: parts.logger,
      redisTimeoutMs: listen.redis_timeout_ms,
      activation: worker.activation ? { queue: worker.activation.queue, state: worker.activation.runtime.state } : undefined,
      gate: parts.gate("admin"),
      jsonKeys: parts.jsonKeys,
      console: { retentionMs: parts.settings.history.retention_ms, sources: consoleSourcesOf(parts) },
    };
  },
  async register(scope, deps) {
    // Loaded with bull-board, the console and the admin API only by a server that has admin users.
    const { adminRoutes } = await import("../../server/admin/admin-routes.js");
    await scope.register(adminRoutes, deps);
  },
});
