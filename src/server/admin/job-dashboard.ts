import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { createBullBoard } from "@bull-board/api";
import { FastifyAdapter } from "@bull-board/fastify";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { listedOutcomeOf, storedResultOf } from "../../jobs/admin/job-admin.js";
import type { JobQueues } from "../../jobs/queues/job-queues.js";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";
import type { AdminIdentityOf } from "./guard-admin-requests.js";

/** A queue as bull-board takes it. */
type BoardQueue = ConstructorParameters<typeof BullMQAdapter>[0];

/** What bull-board's name formatter is given of a job (BullMQ's `toJSON()`). */
const boardJobSchema = z.object({ name: z.string(), returnvalue: z.unknown() });

// allowCompletedRetries is read by bull-board's base adapter (its BullMQAdapter's type leaves it out).
const actions = { readOnlyMode: false, allowRetries: true, allowCompletedRetries: false };

/**
 * bull-board shows BullMQ's states only: a sync that held deletions back is "completed" there,
 * so its name says it (`sync.run (held_back)`), and results stored camelCase by an earlier
 * version are shown snake_case like the others.
 */
function boardQueue(queue: BoardQueue, description: string): BullMQAdapter {
  const adapter = new BullMQAdapter(queue, { ...actions, description });
  adapter.setFormatter("name", (job: unknown) => {
    const shown = boardJobSchema.safeParse(job);
    if (!shown.success) return "?";
    const outcome = listedOutcomeOf(shown.data.name, shown.data.returnvalue);
    return outcome === null ? shown.data.name : `${shown.data.name} (${outcome})`;
  });
  adapter.setFormatter("returnValue", (value: unknown) => storedResultOf(value));
  return adapter;
}

/**
 * The job dashboard (bull-board) at `/admin`, registered inside adminRoutes' scope after its
 * guard's hooks: the projects' queues and the Activation queue, with the buttons a viewer may
 * not use hidden. Registered last of the scope's hooks, as bull-board's own scope takes the hooks
 * its parent has when it is registered.
 */
export async function jobDashboard(
  app: FastifyInstance,
  options: {
    readonly queues: JobQueues;
    /** The Activation queue, when `activation` is configured. */
    readonly activationQueue: BoardQueue | undefined;
    readonly identityOf: AdminIdentityOf;
  },
): Promise<void> {
  // bull-board's own UI asks for the queues; a viewer gets them marked read-only, so the UI
  // shows no action buttons (and the route table refuses them anyway).
  app.addHook("onSend", async (request, _reply, payload) => {
    if (options.identityOf(request)?.role !== "viewer" || request.routeOptions.url !== "/admin/api/queues" || typeof payload !== "string")
      return payload;
    try {
      const body = JSON.parse(payload) as { queues?: { readOnlyMode?: boolean; allowRetries?: boolean }[] };
      if (!Array.isArray(body.queues)) return payload;
      for (const queue of body.queues) Object.assign(queue, { readOnlyMode: true, allowRetries: false, allowCompletedRetries: false });
      return JSON.stringify(body);
    } catch {
      return payload;
    }
  });

  // bull-board's page links a web-font stylesheet on a foreign host, which the CSP refuses (and
  // which would tell that host of every admin's visit): left out, the UI uses the system fonts.
  app.addHook("onSend", async (_request, reply, payload) => {
    if (typeof payload !== "string" || !String(reply.getHeader("content-type") ?? "").startsWith("text/html")) return payload;
    return payload.replace(/<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>\s*/gi, "");
  });

  const board = new FastifyAdapter();
  board.setBasePath("/admin");
  createBullBoard({
    // Retrying a completed job would run it again: its button is hidden and the route refuses it.
    // bull-board has no switch for its other buttons (add, pause, empty, ...): an admin sees them, and they answer 403.
    queues: [
      ...options.queues.projects.map((project) => boardQueue(options.queues.queueFor(project), `project ${project}`)),
      ...(options.activationQueue ? [boardQueue(options.activationQueue, "Activation API")] : []),
    ],
    serverAdapter: board,
    options: { uiConfig: { boardTitle: "pim-sync jobs" } },
  });
  await app.register(async (boardScope) => {
    // bull-board's pages and API serve its UI, change with its versions and are decided by the
    // route table: left out of the API description (bull-board 9 marks them hidden itself; this
    // keeps them out whatever a later version does).
    boardScope.addHook("onRoute", (route) => {
      route.schema = { ...route.schema, ...HIDDEN_ROUTE };
    });
    await boardScope.register(board.registerPlugin());
  });
}
