/**
 * The PIM's OAuth side (reference §1): `POST /api/oauth/v1/token` with the password and
 * refresh_token grants, and the bearer check in front of every REST route.
 *
 * Failures on the token endpoint are 422 with a `{code, message}` body, not the 400/401 of plain
 * OAuth: that is how Akeneo wraps them. Messages other than the documented "client_id" one come
 * from the OAuth2 library the PIM uses; clients should match statuses, not texts.
 */
import { timingSafeEqual } from "node:crypto";

import { z } from "zod";

import { contentTypeOf, headerOf } from "../shared/sim-request.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";
import { jsonReply } from "../shared/replies.js";

import { akeneoError, INVALID_JSON_MESSAGE } from "./akeneo-errors.js";
import type { ResourceForms } from "./resource-forms.js";
import type { TokenStore } from "./token-store.js";

export interface OAuthClient {
  readonly clientId: string;
  readonly secret: string;
  readonly username: string;
  readonly password: string;
}

export const DEFAULT_OAUTH_CLIENT: OAuthClient = {
  clientId: "sim-client",
  secret: "sim-secret",
  username: "sim-user",
  password: "sim-password",
};

const BAD_CLIENT_MESSAGE = 'Parameter "client_id" is missing or does not match any client, or secret is invalid';

/** Fields are read as strings; anything else counts as missing, like an absent form field. */
const tokenRequestSchema = z.object({
  grant_type: z.string().optional().catch(undefined),
  username: z.string().optional().catch(undefined),
  password: z.string().optional().catch(undefined),
  refresh_token: z.string().optional().catch(undefined),
});

export function handleTokenRequest(
  request: SimRequest,
  clients: readonly OAuthClient[],
  tokens: TokenStore,
  forms: Pick<ResourceForms, "token">,
): SimReply {
  const contentType = contentTypeOf(request);
  if (contentType === undefined) {
    return akeneoError(415, "The 'Content-type' header is missing. 'application/json' has to specified as value.");
  }
  const text = request.body.toString("utf8");
  let fields: unknown;
  if (contentType === "application/json") {
    try {
      fields = JSON.parse(text);
    } catch {
      return akeneoError(400, INVALID_JSON_MESSAGE);
    }
  } else if (contentType === "application/x-www-form-urlencoded") {
    fields = Object.fromEntries(new URLSearchParams(text));
  } else {
    return akeneoError(
      415,
      `"${contentType}" in "Content-Type" header is not valid. Only "application/json" or "application/x-www-form-urlencoded" are allowed.`,
    );
  }
  const parsed = tokenRequestSchema.safeParse(fields);
  if (!parsed.success) return akeneoError(400, INVALID_JSON_MESSAGE);
  const body = parsed.data;

  const client = authenticateClient(headerOf(request, "authorization"), clients);
  if (client === undefined) return akeneoError(422, BAD_CLIENT_MESSAGE);

  if (body.grant_type === "password") {
    if (body.username === undefined || body.password === undefined) {
      return akeneoError(422, 'Missing parameters. "username" and "password" required');
    }
    // A connection's API user belongs to that connection: another connection's user is refused too.
    if (!sameSecret(body.username, client.username) || !sameSecret(body.password, client.password)) {
      return akeneoError(422, "Invalid username and password combination");
    }
    return tokenResponse(forms.token(tokens.issue(client.clientId, client.username)));
  }
  if (body.grant_type === "refresh_token") {
    if (body.refresh_token === undefined) return akeneoError(422, 'No "refresh_token" parameter found');
    const redeemed = tokens.redeemRefresh(client.clientId, body.refresh_token);
    if (!redeemed.ok) return akeneoError(422, redeemed.message);
    return tokenResponse(forms.token(tokens.issue(client.clientId, redeemed.username)));
  }
  return akeneoError(422, "Invalid grant_type parameter or parameter missing");
}

/** The answer's body comes from `forms.token` (resource-forms.ts): full, or the access token alone. */
function tokenResponse(body: object): SimReply {
  return jsonReply(200, body, { "cache-control": "no-store", pragma: "no-cache" });
}

function authenticateClient(authorization: string | undefined, clients: readonly OAuthClient[]): OAuthClient | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(authorization?.trim() ?? "");
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] ?? "", "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  if (separator < 0) return undefined;
  const clientId = decoded.slice(0, separator);
  const secret = decoded.slice(separator + 1);
  return clients.find((client) => client.clientId === clientId && sameSecret(secret, client.secret));
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

export type BearerCheck = { readonly ok: true; readonly clientId: string } | { readonly ok: false; readonly reply: SimReply };

/** The check in front of every `/api/rest/v1/*` route, with the PIM's three 401 messages. */
export function checkBearer(request: SimRequest, tokens: TokenStore): BearerCheck {
  const match = /^Bearer\s+(\S+)$/i.exec(headerOf(request, "authorization")?.trim() ?? "");
  if (match === null) return { ok: false, reply: akeneoError(401, "Authentication is required") };
  const checked = tokens.checkAccess(match[1] ?? "");
  if (checked.ok) return { ok: true, clientId: checked.clientId };
  const message = checked.reason === "expired" ? "The access token provided has expired." : "The access token provided is invalid.";
  return {
    ok: false,
    reply: akeneoError(
      401,
      message,
      {},
      {
        "www-authenticate": `Bearer realm="Service", error="invalid_grant", error_description="${message}"`,
      },
    ),
  };
}
