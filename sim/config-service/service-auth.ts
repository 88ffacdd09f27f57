/**
 * Token authentication of the configuration service (reference §1.1): `POST /api/v1/auth/token/`
 * with `{email, password, token_name}` answers `{key}`; the same token name gives the same key
 * back. Every other route needs `Authorization: Token <key>` and answers DRF's 401s otherwise.
 */
import { randomUUID } from "node:crypto";

import { z } from "zod";

import { jsonReply } from "../shared/replies.js";
import { contentTypeOf, headerOf } from "../shared/sim-request.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";

import { detailReply, fieldErrorsReply } from "./drf-errors.js";

export interface ServiceUser {
  readonly email: string;
  readonly password: string;
}

export type TokenCheck = { readonly ok: true } | { readonly ok: false; readonly reply: SimReply };

export interface ServiceAuth {
  handleTokenRequest(request: SimRequest): SimReply;
  check(request: SimRequest): TokenCheck;
  /** The key answers "Invalid token." from now on (a token deleted by an admin). */
  revoke(key: string): void;
  /** Accepts the key again. */
  restore(key: string): void;
}

const field = z.string({ error: (issue) => (issue.input === undefined ? "This field is required." : "Not a valid string.") });
const tokenRequestSchema = z.object({
  email: field.min(1, { error: "This field may not be blank." }),
  password: field.min(1, { error: "This field may not be blank." }),
  token_name: field.min(1, { error: "This field may not be blank." }),
});

export function createServiceAuth(staticTokens: readonly string[], users: readonly ServiceUser[]): ServiceAuth {
  const valid = new Set(staticTokens);
  const byUserAndName = new Map<string, string>();
  const revoked = new Set<string>();
  return {
    handleTokenRequest(request) {
      const contentType = contentTypeOf(request);
      const text = request.body.toString("utf8");
      let body: unknown;
      if (contentType === "application/x-www-form-urlencoded") {
        body = Object.fromEntries(new URLSearchParams(text));
      } else if (contentType === "application/json") {
        try {
          body = text === "" ? {} : JSON.parse(text);
        } catch (error) {
          return detailReply(400, `JSON parse error - ${error instanceof Error ? error.message : String(error)}`);
        }
      } else {
        return detailReply(415, `Unsupported media type "${contentType ?? ""}" in request.`);
      }
      const parsed = tokenRequestSchema.safeParse(body);
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
        return fieldErrorsReply(errors);
      }
      const { email, password, token_name: tokenName } = parsed.data;
      if (!users.some((user) => user.email === email && user.password === password)) {
        // DRF's ObtainAuthToken answers bad credentials with a 400, not a 401.
        return fieldErrorsReply({ non_field_errors: ["Unable to log in with provided credentials."] });
      }
      const id = `${email}\n${tokenName}`;
      const key = byUserAndName.get(id) ?? randomUUID();
      byUserAndName.set(id, key);
      valid.add(key);
      return jsonReply(200, { key });
    },
    check(request) {
      const header = headerOf(request, "authorization")?.trim() ?? "";
      const [scheme, key, ...extra] = header.split(/\s+/);
      const challenge = { "www-authenticate": "Token" };
      // Like DRF's TokenAuthentication: another scheme (Bearer…) means "no credentials".
      if (scheme?.toLowerCase() !== "token") {
        return { ok: false, reply: detailReply(401, "Authentication credentials were not provided.", challenge) };
      }
      if (key === undefined || key === "") {
        return { ok: false, reply: detailReply(401, "Invalid token header. No credentials provided.", challenge) };
      }
      if (extra.length > 0) {
        return { ok: false, reply: detailReply(401, "Invalid token header. Token string should not contain spaces.", challenge) };
      }
      if (!valid.has(key) || revoked.has(key)) return { ok: false, reply: detailReply(401, "Invalid token.", challenge) };
      return { ok: true };
    },
    revoke: (key) => void revoked.add(key),
    restore: (key) => void revoked.delete(key),
  };
}
