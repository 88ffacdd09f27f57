/**
 * Every choice pim-sync makes where the Activation API description is not published (its
 * OpenAPI was not in any source; reference §5). One module, mirrored by one section of docs/activation.md
 * ("Activation API: assumptions"), so that the day the spec is read, this is the file to change.
 * Known facts live in the client and are sourced in docs/activation.md; only guesses live here.
 */

/* The config defaults that are guesses (auth mode, rate, cursor parameter, offers body, retention) live with
   the settings schema, the one home of defaults: src/settings/activation-settings-schema.ts. */

/** Header names of the `headers` auth mode, as Akeneo's UI-extension samples send them. */
export const AUTH_HEADER_NAMES = { connection: "pim_connection_id", token: "access_token" } as const;

export type ActivationAuthMode = "headers" | "bearer";

/** The headers every request carries. */
export function authHeadersOf(mode: ActivationAuthMode, pimConnectionId: string, accessToken: string): Record<string, string> {
  if (mode === "bearer") return { authorization: `Bearer ${accessToken}` };
  return { [AUTH_HEADER_NAMES.connection]: pimConnectionId, [AUTH_HEADER_NAMES.token]: accessToken };
}

/** Which headers carried the credentials, for a 401 message: names only, never values. */
export function describeAuthHeaders(mode: ActivationAuthMode): string {
  return mode === "bearer"
    ? "the `Authorization: Bearer …` header (activation.auth: bearer)"
    : `the \`${AUTH_HEADER_NAMES.token}\` header (with \`${AUTH_HEADER_NAMES.connection}\`; activation.auth: headers)`;
}

/** The offers PUT body: the array itself, or `{<envelope>: [...]}`. */
export function offersBody(offers: readonly unknown[], envelope: string | null): unknown {
  return envelope === null ? offers : { [envelope]: offers };
}

/**
 * An order's identity. The samples show `id` as a string; a number is accepted and written as
 * its decimal text. Anything else (missing, null, empty, an object) means "no id": the order is
 * reported and skipped, since without an id it cannot be told apart from its next version.
 */
export function orderIdOf(order: unknown): string | null {
  if (order === null || typeof order !== "object" || Array.isArray(order) || !("id" in order)) return null;
  const id = order.id;
  if (typeof id === "string" && id.trim() !== "") return id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return null;
}

/**
 * The cursor as the query parameter value. `nextSearchAfter` is a string in the samples; a number
 * is sent as its text. (An array, as in Akeneo PIM's own search_after, is rejected as a shape error.)
 */
export function cursorText(cursor: string | number): string {
  return String(cursor);
}

// "Changed" = the order's canonical JSON (keys sorted, no spaces) differs from the last one
// delivered for that id, compared through its SHA-256 (src/core/json/canonical-json.ts, select-orders-to-emit.ts):
// key order alone is not a change. An offer is "already accepted" when the last one accepted
// under its `offers.key` has the same hash. A webhook's Idempotency-Key is the delivery id
// (delivery-id.ts).

/** File sink: `<dir>/<connection>-<YYYY-MM-DD>.ndjson`, the UTC day of the pull, connection id URL-encoded. */
export function fileSinkName(connection: string, at: Date): string {
  return `${encodeURIComponent(connection)}-${at.toISOString().slice(0, 10)}.ndjson`;
}

/**
 * Offers and shipment PUTs are retried in-process on 5xx and timeouts like reads: PUT "creates
 * and updates" (help page), so sending the same body again is taken as harmless. Webhook POSTs
 * carry an Idempotency-Key and are retried the same way.
 */
export const PUTS_ARE_IDEMPOTENT = true;

/** How long the trigger endpoint trusts the API's connection list when checking an id. */
export const CONNECTION_LIST_CACHE_MS = 60_000;

/** Upper bound on one activation job (no published response times). */
export const ACTIVATION_JOB_TIMEOUT_MS = 10 * 60_000;

/**
 * How deeply an offer or a shipment may nest: the object itself is level 1, `{"price": {"amount": 1}}`
 * has 2. Nothing is published; the samples nest 3 or 4 levels. Deeper input is refused as bad input
 * (400 on the trigger routes, exit 2 from the CLI) before anything walks it: no caller's JSON reaches
 * code that recurses into it (hashing, the job's data, the PUT's body) deep enough to exhaust the stack.
 */
export const MAX_PAYLOAD_DEPTH = 32;

/** A pull stops with an error after this many pages, in case a cursor cycles without repeating at once. */
export const MAX_ORDER_PAGES = 10_000;
