/**
 * Access and refresh tokens of the PIM simulator. Expiry uses Date.now() so tests can move the
 * clock (vi.setSystemTime) instead of waiting an hour. Expired tokens are remembered so that the
 * PIM's two different 401 messages ("expired" versus "invalid") can be told apart.
 */
import { randomBytes } from "node:crypto";

/** Akeneo's default refresh token lifetime: 14 days (reference §1). */
export const REFRESH_TOKEN_TTL_SECONDS = 1_209_600;

export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly expires_in: number;
}

export type AccessCheck = { readonly ok: true; readonly clientId: string } | { readonly ok: false; readonly reason: "expired" | "invalid" };

export type RefreshRedemption = { readonly ok: true; readonly username: string } | { readonly ok: false; readonly message: string };

export interface TokenStore {
  issue(clientId: string, username: string): TokenPair;
  checkAccess(token: string): AccessCheck;
  /** Refresh tokens are single-use: a successful redemption consumes it. */
  redeemRefresh(clientId: string, refreshToken: string): RefreshRedemption;
  /** Expires every access token at once (refresh tokens keep working). */
  expireAllAccess(): void;
  /** Forgets every access and refresh token issued so far: they answer "invalid" (a revoked connection). */
  revokeAll(): void;
}

interface Grant {
  readonly clientId: string;
  readonly username: string;
  expiresAtMs: number;
}

export function createTokenStore(accessTtlSeconds: number, refreshTtlSeconds = REFRESH_TOKEN_TTL_SECONDS): TokenStore {
  if (!Number.isInteger(accessTtlSeconds) || accessTtlSeconds < 1) {
    throw new RangeError(`tokenTtlSeconds must be a positive integer, got ${accessTtlSeconds}`);
  }
  const access = new Map<string, Grant>();
  const refresh = new Map<string, Grant>();
  return {
    issue(clientId, username) {
      const now = Date.now();
      const pair: TokenPair = { access_token: newToken(), refresh_token: newToken(), expires_in: accessTtlSeconds };
      access.set(pair.access_token, { clientId, username, expiresAtMs: now + accessTtlSeconds * 1000 });
      refresh.set(pair.refresh_token, { clientId, username, expiresAtMs: now + refreshTtlSeconds * 1000 });
      return pair;
    },
    checkAccess(token) {
      const grant = access.get(token);
      if (grant === undefined) return { ok: false, reason: "invalid" };
      if (grant.expiresAtMs <= Date.now()) return { ok: false, reason: "expired" };
      return { ok: true, clientId: grant.clientId };
    },
    redeemRefresh(clientId, refreshToken) {
      const grant = refresh.get(refreshToken);
      // A refresh token of another client is as unknown as a made-up one.
      if (grant === undefined || grant.clientId !== clientId) return { ok: false, message: "Invalid refresh token" };
      if (grant.expiresAtMs <= Date.now()) return { ok: false, message: "Refresh token has expired" };
      refresh.delete(refreshToken);
      return { ok: true, username: grant.username };
    },
    expireAllAccess() {
      const past = Date.now() - 1;
      for (const grant of access.values()) grant.expiresAtMs = Math.min(grant.expiresAtMs, past);
    },
    revokeAll() {
      access.clear();
      refresh.clear();
    },
  };
}

/** Same look as Akeneo's tokens: base64 of a random hex string. */
function newToken(): string {
  return Buffer.from(randomBytes(32).toString("hex")).toString("base64url");
}
