import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { createPerAddressWarnLog } from "../../infra/log/per-address-warn-log.js";

/** Answers that refuse what the client sent: a malformed or invalid body or query, too large, not JSON. */
const BAD_REQUEST_STATUSES = new Set([400, 413, 415, 422]);
/** The first problem is the client's text in part (a name it sent): cut, as every warning carries it. */
const MAX_LOGGED_PROBLEM = 200;

interface BadRequestEvent {
  readonly ip: string;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly problem: string | undefined;
}

/** The first reason an answer gives (`{errors: [...]}` or `{error}`), or undefined. */
function firstProblem(payload: unknown): string | undefined {
  if (typeof payload !== "string" || !payload.startsWith("{")) return undefined;
  try {
    const body = JSON.parse(payload) as { errors?: unknown; error?: unknown };
    const first = Array.isArray(body.errors) ? (body.errors[0] as unknown) : body.error;
    return typeof first === "string" ? (first.length > MAX_LOGGED_PROBLEM ? `${first.slice(0, MAX_LOGGED_PROBLEM)}...` : first) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `bad request refused` at warn for every answer that refuses what the client sent, with its
 * address, the route pattern, the status and the first reason given; at most one line per
 * address per `intervalMs` (the authentication refusals' interval, `server.auth_throttle.log_interval_ms`).
 * Refused credentials are logged by src/server/auth/ instead. Add after the hooks that redact answers.
 */
export function logBadRequests(app: FastifyInstance, logger: Logger, intervalMs: number): void {
  const log = createPerAddressWarnLog<BadRequestEvent>({
    logger,
    intervalMs,
    message: "bad request refused",
    leftOutMessage: "bad requests left out of the log",
    fieldsOf: (event) => ({
      ip: event.ip,
      method: event.method,
      route: event.route,
      status: event.status,
      ...(event.problem === undefined ? {} : { problem: event.problem }),
    }),
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (!BAD_REQUEST_STATUSES.has(reply.statusCode)) return payload;
    const route = request.is404 ? "unmatched" : (request.routeOptions.url ?? "unmatched");
    log.warn({ ip: request.ip, method: request.method, route, status: reply.statusCode, problem: firstProblem(payload) });
    return payload;
  });
}
