import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { createFixtureCatalog, type FixtureReply } from "./fixture-catalog.js";
import { jsonFixture } from "./fixture-payloads.js";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
  readonly contentType: string;
  readonly body: string;
  /** performance.now() when the request arrived. */
  readonly atMs: number;
}

/** What to do instead of answering normally: a status (with optional Retry-After), or no answer at all. */
export type Fault = { readonly status: number; readonly retryAfter?: string } | { readonly hang: true };

export interface FixtureServerOptions {
  readonly clientId: string;
  readonly secret: string;
  readonly username: string;
  readonly password: string;
  readonly expiresInS?: number;
  /** Token answer fields left out, as Akeneo's API description allows (it requires none). */
  readonly tokenOmits?: readonly ("expires_in" | "refresh_token")[];
}

const TOKEN_PATH = "/api/oauth/v1/token";
const REST_PREFIX = "/api/rest/v1/";

/**
 * A small Akeneo stand-in on 127.0.0.1 (port 0): the token endpoint, the REST reads and writes
 * pim-sync uses (served from the official payloads), and switches for the failures the client
 * must survive. It records every request and the highest number of REST requests in flight.
 */
export async function startFixtureServer(options: FixtureServerOptions) {
  const requests: RecordedRequest[] = [];
  const grants: string[] = [];
  const issuedTokens: string[] = [];
  const validAccess = new Set<string>();
  const expiredAccess = new Set<string>();
  const validRefresh = new Set<string>();
  const faults: { path: string; fault: Fault; remaining: number }[] = [];
  const expectedBasic = `Basic ${Buffer.from(`${options.clientId}:${options.secret}`).toString("base64")}`;
  const controls = {
    /** Delay before every normal answer (token and REST), so that concurrent requests overlap. */
    responseDelayMs: 0,
    rejectPasswordLogins: false,
    rejectRefreshTokens: false,
    /** A careless server or proxy: rejections quote the request's headers and body back. */
    echoRejectedLogins: false,
  };
  let inFlight = 0;
  let maxRestInFlight = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, { status: 500, body: JSON.stringify({ message: String(error) }) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("fixture server has no TCP address");
  const { port } = address;
  const baseUrl = `http://127.0.0.1:${port}`;
  const catalog = createFixtureCatalog(baseUrl);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", baseUrl);
    const rest = url.pathname.startsWith(REST_PREFIX);
    if (rest) {
      inFlight += 1;
      maxRestInFlight = Math.max(maxRestInFlight, inFlight);
      res.once("close", () => (inFlight -= 1));
    }
    const body = await readBody(req);
    const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
    requests.push({
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      contentType,
      body,
      atMs: performance.now(),
    });

    const fault = takeFault(url.pathname);
    if (fault && "hang" in fault) return; // never answered: the client's timeout must end it
    if (fault) return send(res, { status: fault.status, body: JSON.stringify({ code: fault.status, message: "fault" }) }, fault.retryAfter);
    if (controls.responseDelayMs > 0) await sleep(controls.responseDelayMs);
    if (url.pathname === TOKEN_PATH && req.method === "POST") return send(res, token(req.headers.authorization, body));
    if (!rest) return send(res, { status: 404, body: JSON.stringify(jsonFixture("error_404_not_found.json")) });

    const bearer = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (!validAccess.has(bearer)) {
      const message = expiredAccess.has(bearer) ? "The access token provided has expired." : "Authentication is required";
      return send(res, { status: 401, body: JSON.stringify({ code: 401, message }) });
    }
    send(res, catalog.handle(req.method ?? "", url.pathname.slice(REST_PREFIX.length), url.searchParams, contentType, body));
  }

  function token(authorization: string | undefined, body: string): FixtureReply {
    const rejected: FixtureReply = controls.echoRejectedLogins
      ? { status: 422, body: JSON.stringify({ code: 422, message: `rejected ${authorization ?? ""} ${body}` }) }
      : { status: 422, body: JSON.stringify(jsonFixture("token_error_422_invalid_client.json")) };
    if (authorization !== expectedBasic) return rejected;
    const grant = parseObject(body);
    grants.push(stringField(grant, "grant_type") ?? "?");
    if (stringField(grant, "grant_type") === "password") {
      const matches = stringField(grant, "username") === options.username && stringField(grant, "password") === options.password;
      if (controls.rejectPasswordLogins || !matches) return rejected;
    } else {
      const refreshToken = stringField(grant, "refresh_token") ?? "";
      if (controls.rejectRefreshTokens || !validRefresh.delete(refreshToken)) {
        return { status: 422, body: JSON.stringify({ code: 422, message: "Invalid refresh token" }) };
      }
    }
    const accessToken = `access-${randomUUID()}`;
    const refreshToken = `refresh-${randomUUID()}`;
    const omits = options.tokenOmits ?? [];
    validAccess.add(accessToken);
    // A refresh token not handed out cannot be redeemed.
    if (!omits.includes("refresh_token")) validRefresh.add(refreshToken);
    issuedTokens.push(accessToken, refreshToken);
    // The shape of token_response.json, with tokens of our own.
    const answer: Record<string, unknown> = {
      access_token: accessToken,
      expires_in: options.expiresInS ?? 3600,
      token_type: "bearer",
      scope: null,
      refresh_token: refreshToken,
    };
    for (const field of omits) delete answer[field];
    return { status: 200, body: JSON.stringify(answer) };
  }

  function takeFault(path: string): Fault | undefined {
    const entry = faults.find((candidate) => candidate.path === path && candidate.remaining > 0);
    if (!entry) return undefined;
    entry.remaining -= 1;
    return entry.fault;
  }

  return {
    baseUrl,
    requests,
    grants,
    issuedTokens,
    catalog,
    controls,
    get maxRestInFlight(): number {
      return maxRestInFlight;
    },
    /** REST requests to one path (relative to /api/rest/v1/), in arrival order. */
    restRequests(path: string): RecordedRequest[] {
      return requests.filter((request) => request.path === `${REST_PREFIX}${path}`);
    },
    /** The next `times` requests to `path` (relative to /api/rest/v1/, or absolute) get `fault`. */
    failNext(path: string, fault: Fault, times = 1): void {
      faults.push({ path: path.startsWith("/") ? path : `${REST_PREFIX}${path}`, fault, remaining: times });
    },
    /** Every access token issued so far now answers 401 "expired". */
    expireAccessTokens(): void {
      for (const accessToken of validAccess) expiredAccess.add(accessToken);
      validAccess.clear();
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

export type FixtureServer = Awaited<ReturnType<typeof startFixtureServer>>;

function send(res: ServerResponse, reply: FixtureReply, retryAfter?: string): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { "content-type": reply.contentType ?? "application/json" };
  if (retryAfter !== undefined) headers["retry-after"] = retryAfter;
  res.writeHead(reply.status, headers);
  res.end(reply.body ?? "");
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

function parseObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function stringField(value: object | undefined, key: string): string | undefined {
  if (value === undefined || !(key in value)) return undefined;
  const field: unknown = Object.getOwnPropertyDescriptor(value, key)?.value;
  return typeof field === "string" ? field : undefined;
}
