/**
 * A real HTTP server standing in for the Akeneo Event Platform's REST API (its "Getting started"
 * and "Concepts" pages): `POST /api/v1/subscriber` and `POST /api/v1/subscriber/:id/subscription`,
 * with the three `X-PIM-*` headers, the destination's HEAD check before a subscription is made,
 * and the shared fault injection. Where the API is silent, the choices are listed in
 * sim/README.md ("The Event Platform simulator").
 */
import { randomUUID } from "node:crypto";
import { jsonReply } from "../shared/replies.js";
import { createRouter, paramOf, type RouteParams } from "../shared/router.js";
import { contentTypeOf, headerOf, type SimReply, type SimRequest } from "../shared/sim-request.js";
import { startSimulatorRuntime, type SimulatorControls } from "../shared/simulator-runtime.js";

/** The published base path; the real host is `https://event.prd.sdk.akeneo.cloud`. */
export const EVENT_PLATFORM_BASE_PATH = "/api/v1";

export interface EventPlatformSimulatorOptions {
  readonly host?: string;
  readonly port?: number;
  readonly latencyMs?: number;
  /** How long the destination's HEAD check may take before the URL counts as unreachable. */
  readonly headCheckTimeoutMs?: number;
}

export interface SimSubscriber {
  readonly id: string;
  readonly tenant_id: string;
  readonly client_id: string;
  readonly name: string;
  readonly subject: string;
  readonly status: "active";
  readonly contact: { readonly technical_email: string };
  readonly created_at: string;
  readonly updated_at: string;
}

export interface SimSubscription {
  readonly id: string;
  readonly subscriber_id: string;
  readonly source: string;
  readonly subject: string;
  readonly events: readonly string[];
  readonly type: string;
  readonly config: { readonly url: string; readonly secret: { readonly primary: string; readonly secondary?: string } };
  readonly status: string;
  readonly created_at: string;
  /** Not part of the API: the `X-PIM-TOKEN` the creating request carried, so a test can look for it in output. */
  readonly received_token: string;
}

export interface EventPlatformSimulator extends SimulatorControls {
  /** The REST base a client is configured with: `<url>/api/v1`. */
  readonly apiUrl: string;
  subscribers(): SimSubscriber[];
  subscriptions(): SimSubscription[];
}

interface Caller {
  readonly pimUrl: string;
  readonly token: string;
  readonly clientId: string;
}

interface Route {
  handle(request: SimRequest, params: RouteParams, caller: Caller): Promise<SimReply> | SimReply;
}

const EVENT_TYPE_PREFIX = "com.akeneo.pim.v1.";
const message = (status: number, text: string): SimReply => jsonReply(status, { code: status, message: text });

export async function startEventPlatformSimulator(options: EventPlatformSimulatorOptions = {}): Promise<EventPlatformSimulator> {
  const headCheckTimeoutMs = options.headCheckTimeoutMs ?? 5_000;
  const subscribers = new Map<string, SimSubscriber>();
  const subscriptions: SimSubscription[] = [];
  const router = createRouter<Route>();

  router.add("POST", `${EVENT_PLATFORM_BASE_PATH}/subscriber`, {
    handle(request, _params, caller) {
      const body = jsonBody(request);
      if (!isObject(body)) return message(400, "Body must be a JSON object.");
      const contact = body.contact;
      if (typeof body.name !== "string" || body.name.trim() === "") return message(400, "name: This value should not be blank.");
      if (!isObject(contact) || typeof contact.technical_email !== "string" || !/^[^@\s]+@[^@\s]+$/.test(contact.technical_email)) {
        return message(400, "contact.technical_email: This value is not a valid email address.");
      }
      const now = new Date().toISOString();
      const subscriber: SimSubscriber = {
        id: randomUUID(),
        tenant_id: "sim-tenant",
        client_id: caller.clientId,
        name: body.name,
        subject: caller.pimUrl,
        status: "active",
        contact: { technical_email: contact.technical_email },
        created_at: now,
        updated_at: now,
      };
      subscribers.set(subscriber.id, subscriber);
      return jsonReply(201, subscriber);
    },
  });

  router.add("POST", `${EVENT_PLATFORM_BASE_PATH}/subscriber/:id/subscription`, {
    async handle(request, params, caller) {
      const subscriber = subscribers.get(paramOf(params, "id"));
      if (subscriber === undefined) return message(404, "Subscriber not found.");
      // A subscriber is tied to one PIM and one connection (Concepts).
      if (subscriber.subject !== caller.pimUrl || subscriber.client_id !== caller.clientId)
        return message(403, "This subscriber belongs to another PIM or connection.");
      const raw = request.body.toString("utf8");
      const body = jsonBody(request);
      const problem = subscriptionProblem(body, subscriber);
      // Like many APIs, this one echoes the request in its refusal: the client must keep the secrets out of what it shows.
      if (problem !== undefined) return message(400, `${problem} Request: ${raw}`);
      const valid = body as { events: string[]; config: { url: string; secret: { primary: string; secondary?: string } } };
      const check = await headCheck(valid.config.url, headCheckTimeoutMs);
      if (check !== undefined) return message(400, `The destination failed its check: ${check}. config: ${JSON.stringify(valid.config)}`);
      const subscription: SimSubscription = {
        id: randomUUID(),
        subscriber_id: subscriber.id,
        source: "pim",
        subject: subscriber.subject,
        events: [...valid.events],
        type: "https",
        config: { url: valid.config.url, secret: { ...valid.config.secret } },
        status: "pending",
        created_at: new Date().toISOString(),
        received_token: caller.token,
      };
      subscriptions.push(subscription);
      const { received_token: _token, ...answer } = subscription;
      // The secrets come back in the answer too: a client must print what it chose, not the answer.
      return jsonReply(201, answer);
    },
  });

  const controls = await startSimulatorRuntime<Route>({
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    latencyMs: options.latencyMs ?? 0,
    router,
    async dispatch(request, lookup, context) {
      if (lookup.kind === "not-found") return message(404, "Not found.");
      if (lookup.kind === "method-not-allowed") return message(405, "Method not allowed.");
      const caller = callerOf(request);
      if (caller === undefined) return message(401, "X-PIM-URL, X-PIM-TOKEN and X-PIM-CLIENT-ID are required.");
      if (contentTypeOf(request) !== "application/json") return message(415, "Content-Type must be application/json.");
      await context.applyLatency();
      return lookup.match.handler.handle(request, lookup.match.params, caller);
    },
    defaultFaultBody: (status) => ({
      code: status,
      message: status === 429 ? "Too many requests." : status >= 500 ? "Internal server error." : `Simulated error ${status}.`,
    }),
  });

  return {
    ...controls,
    apiUrl: `${controls.url}${EVENT_PLATFORM_BASE_PATH}`,
    subscribers: () => structuredClone([...subscribers.values()]),
    subscriptions: () => structuredClone(subscriptions),
  };
}

/** Any non-empty token is taken (the simulator does not ask the PIM); the PIM URL must be a URL. */
function callerOf(request: SimRequest): Caller | undefined {
  const pimUrl = headerOf(request, "x-pim-url")?.trim() ?? "";
  const token = headerOf(request, "x-pim-token")?.trim() ?? "";
  const clientId = headerOf(request, "x-pim-client-id")?.trim() ?? "";
  if (pimUrl === "" || token === "" || clientId === "" || !URL.canParse(pimUrl)) return undefined;
  return { pimUrl: pimUrl.replace(/\/+$/, ""), token, clientId };
}

function subscriptionProblem(body: unknown, subscriber: SimSubscriber): string | undefined {
  if (!isObject(body)) return "Body must be a JSON object.";
  if (body.source !== "pim") return "source: must be 'pim'.";
  if (typeof body.subject !== "string" || body.subject.replace(/\/+$/, "") !== subscriber.subject)
    return "subject: must be the subscriber's PIM URL.";
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0) return "events: must list at least one event type.";
  if (!events.every((type): type is string => typeof type === "string" && type.startsWith(EVENT_TYPE_PREFIX)))
    return "events: unknown event type.";
  if (body.type !== "https") return "type: must be 'https'.";
  const config = body.config;
  if (!isObject(config) || typeof config.url !== "string" || !URL.canParse(config.url)) return "config.url: must be a URL.";
  const url = new URL(config.url);
  // The real platform takes https only; the simulator also takes http on a loopback host, where test receivers listen.
  if (url.protocol !== "https:" && !(url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)))
    return "config.url: must be an https URL.";
  const secret = config.secret;
  if (!isObject(secret) || typeof secret.primary !== "string" || secret.primary === "") return "config.secret.primary: is required.";
  if (secret.secondary !== undefined && (typeof secret.secondary !== "string" || secret.secondary === ""))
    return "config.secret.secondary: must be a non-empty string.";
  if (Object.keys(secret).some((key) => key !== "primary" && key !== "secondary"))
    return "config.secret: only primary and secondary are allowed.";
  return undefined;
}

/** The platform's check before it creates a subscription: the destination must answer HEAD with 200. */
async function headCheck(url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await fetch(url, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200 ? undefined : `HEAD ${url} answered ${response.status}, not 200`;
  } catch {
    return `HEAD ${url} could not be reached`;
  }
}

function jsonBody(request: SimRequest): unknown {
  try {
    return JSON.parse(request.body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
