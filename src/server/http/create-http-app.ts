import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { IdempotencyKeyConflict } from "../../jobs/queues/idempotency-key-conflict.js";
import { JobNotFoundError, JobRefError } from "../../jobs/admin/job-admin.js";
import { JobDataError } from "../../jobs/catalog/job-catalog.js";
import { BodyError } from "./body-error.js";
import { bodyDepthProblem } from "./body-depth-problem.js";
import { logBadRequests } from "./bad-request-log.js";
import { describeHttpApi } from "../openapi/describe-http-api.js";
import type { ListenSettings } from "./listen-settings.js";
import { RedisDeadlineError } from "./redis-deadline.js";
import { securityHeaders } from "./security-headers.js";
import type { Redactor } from "../../infra/secrets/redactor.js";

/** The largest request body any route reads. */
export const MAX_BODY_BYTES = 1_000_000;
/** How often Node looks for requests past their header/request timeout. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as Partial<FastifyError>).code === "string";
}

/**
 * The worker's fastify instance, before routes are added: timeouts and the connection cap from
 * `server`, JSON bodies only (bounded), every error answered as `{errors: [...]}` JSON, security
 * headers on every answer, and the OpenAPI description of every route added later
 * (`app.swagger()`, served by src/server/openapi/openapi-routes.ts; a route must describe its answers).
 */
export function createHttpApp(args: {
  /** `auth_throttle.log_interval_ms`: at most one `bad request refused` warning per client address this often. */
  readonly limits: Pick<ListenSettings, "request_timeout_ms" | "headers_timeout_ms" | "max_connections" | "auth_throttle">;
  readonly logger: Logger;
  /** Every answer's body is scrubbed of the configured secrets (job data, failed reasons, the dashboard's API). */
  readonly redactor?: Redactor;
  /** The API description's version (pim-sync's); `unknown` when left out. */
  readonly version?: string;
}): FastifyInstance {
  const log = args.logger.child({ component: "http" });
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    requestTimeout: args.limits.request_timeout_ms,
    // Node's checks for both timeouts run on this interval; its default (30 s) would let a
    // slow client hold a connection far past the configured bound.
    http: { headersTimeout: args.limits.headers_timeout_ms, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    return503OnClosing: true,
  });
  app.server.maxConnections = args.limits.max_connections;
  securityHeaders(app);
  describeHttpApi(app, { version: args.version ?? "unknown" });
  // The routes' request schemas are for the description: each handler parses with the zod schema
  // they are generated from, whose messages (every problem at once, each naming its field) are
  // the API's. Fastify's own validator would refuse first with other words, and strip unknown
  // fields a strict schema must refuse.
  app.setValidatorCompiler(() => () => true);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof body === "string" ? body : body.toString("utf8"));
    } catch {
      done(new BodyError(400, "body is not valid JSON"), undefined);
      return;
    }
    const tooDeep = bodyDepthProblem(parsed);
    if (tooDeep !== null) done(new BodyError(400, tooDeep));
    else done(null, parsed);
  });

  // An answer given before the request's body was read (401, 413, 415) leaves the rest of that
  // body on the connection, where it would be taken for the next request: close it instead.
  app.addHook("onSend", async (request, reply) => {
    if (!request.raw.complete) void reply.header("connection", "close");
  });

  // The last line of defence for job data and failure reasons shown by any route, the
  // dashboard's own API included (it reads the queues directly). Text answers only: the
  // dashboard's static files are streams.
  const redactor = args.redactor;
  if (redactor && !redactor.empty) {
    app.addHook("onSend", async (_request, _reply, payload) => (typeof payload === "string" ? redactor.redact(payload) : payload));
  }

  logBadRequests(app, log, args.limits.auth_throttle.log_interval_ms);

  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ error: "not found" }));

  app.setErrorHandler(async (error: unknown, request, reply) => {
    if (error instanceof BodyError) return reply.code(error.status).send({ errors: [error.message] });
    if (error instanceof JobDataError) return reply.code(400).send({ errors: error.problems });
    // A reference no configured queue can hold, or no reference at all: the answer will not
    // change on a retry, so never the 503 "try again" below.
    if (error instanceof JobRefError) return reply.code(400).send({ errors: [`job: ${error.message}`] });
    if (error instanceof JobNotFoundError) return reply.code(404).send({ error: error.message });
    // A reused key with another body: the body would be silently dropped as a duplicate.
    if (error instanceof IdempotencyKeyConflict) return reply.code(422).send({ errors: [`Idempotency-Key: ${error.message}`] });
    if (error instanceof RedisDeadlineError) {
      log.warn({ url: request.url, err: error }, "request answered 503: Redis is not answering");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ error: `${error.message}; try again` });
    }
    if (isFastifyError(error)) {
      if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
        return reply.code(413).send({ errors: [`body larger than ${MAX_BODY_BYTES} bytes`] });
      if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
        return reply.code(415).send({ errors: ["Content-Type must be application/json"] });
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) return reply.code(status).send({ errors: [error.message] });
    }
    log.error({ url: request.url, err: error }, "request failed");
    return reply.code(503).send({ error: "could not handle the request; try again" });
  });
  return app;
}
