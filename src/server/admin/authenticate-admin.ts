import { createHash, timingSafeEqual } from "node:crypto";
import type { AdminUser } from "../../settings/settings-schema.js";

export type AdminRole = AdminUser["role"];

export interface AdminIdentity {
  readonly name: string;
  readonly role: AdminRole;
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
const same = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

function basicCredentials(header: string | undefined): { name: string; password: string } | null {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!basic?.[1]) return null;
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The user name an HTTP Basic `Authorization` header gives (whether or not it is a user's), for throttling and logs. */
export function basicUserName(header: string | undefined): string | undefined {
  return basicCredentials(header)?.name;
}

/**
 * The user an `Authorization` header proves to be: HTTP Basic with a configured name and password,
 * or a bearer token of a user. Every user is compared, in constant time per value, so the time
 * taken says nothing about which part was wrong.
 */
export function authenticateAdmin(header: string | undefined, users: readonly AdminUser[]): AdminIdentity | null {
  const isBasic = /^Basic\s/i.test(header ?? "");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  let found: AdminUser | null = null;
  if (isBasic) {
    const credentials = basicCredentials(header);
    if (credentials === null) return null;
    const { name, password } = credentials;
    for (const user of users) {
      const nameMatches = same(name, user.name);
      const passwordMatches = same(password, user.password);
      if (nameMatches && passwordMatches) found = user;
    }
  } else if (bearer?.[1]) {
    for (const user of users) {
      if (user.token !== undefined && same(bearer[1], user.token)) found = user;
    }
  }
  return found === null ? null : { name: found.name, role: found.role };
}
