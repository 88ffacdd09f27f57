import { isSecretPath } from "../../settings/is-secret-path.js";
import type { Settings } from "../../settings/settings-schema.js";
import { createRedactor, type Redactor } from "./redactor.js";

/** What an unset `${VAR}` of a secret becomes for the `jobs` commands (see unsetPlaceholder). */
const UNSET_PLACEHOLDER = /^<environment variable [A-Za-z_][A-Za-z0-9_]* is not set>$/;

/**
 * Every secret the configuration holds, as one Redactor for the sinks (logger, job failures,
 * job views): the values of the keys the settings schema marks with `secret()` (isSecretPath:
 * PIM client id, secret, user name and password; service token and password; Activation access
 * token; webhook token; trigger, metrics and admin credentials), the service login's email, `redis.password` and the password
 * of every Redis URL. Basic pairs: the PIM's client id/secret and each admin user's name/password.
 */
export function redactorOfSettings(settings: Settings, isSecret: SecretPaths = isSecretPath): Redactor {
  if (isSecret !== isSecretPath) return buildRedactor(settings, isSecret);
  let redactor = redactors.get(settings);
  if (redactor === undefined) {
    redactor = buildRedactor(settings, isSecret);
    redactors.set(settings, redactor);
  }
  return redactor;
}

/**
 * One redactor per settings object: the command, its logger, the job processor and the HTTP
 * server each ask for it, and the walk over a config of 1,000 projects costs tens of ms.
 * Settings are never changed once parsed, so the same object always gives the same secrets.
 */
const redactors = new WeakMap<Settings, Redactor>();

function buildRedactor(settings: Settings, isSecret: SecretPaths): Redactor {
  const secrets: string[] = [];
  collectAtSecretPaths(settings, [], isSecret, secrets);
  for (const project of settings.projects) if ("email" in project.service) secrets.push(project.service.email);
  if (settings.redis?.password !== undefined) secrets.push(settings.redis.password);
  const redisUrls = [settings.redis?.url, ...(settings.redis?.cluster?.nodes ?? [])];
  for (const url of redisUrls) {
    const password = url === undefined ? undefined : passwordOf(url);
    if (password !== undefined) secrets.push(password);
  }
  const basicPairs: [string, string][] = [
    ...settings.projects.map((project): [string, string] => [project.pim.client_id, project.pim.secret]),
    ...(settings.server?.admin?.users ?? []).map((user): [string, string] => [user.name, user.password]),
  ];
  return createRedactor({ secrets: secrets.filter((secret) => !UNSET_PLACEHOLDER.test(secret)), basicPairs });
}

/** Which paths of the settings hold secrets: isSecretPath, or a test's schema's (secretPathsOf). */
type SecretPaths = (path: readonly (string | number)[]) => boolean;

function collectAtSecretPaths(value: unknown, path: (string | number)[], isSecret: SecretPaths, into: string[]): void {
  if (typeof value === "string") {
    if (isSecret(path)) into.push(value);
    return;
  }
  if (Array.isArray(value)) value.forEach((item: unknown, index) => collectAtSecretPaths(item, [...path, index], isSecret, into));
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) collectAtSecretPaths(item, [...path, key], isSecret, into);
}

function passwordOf(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === "" ? undefined : password;
  } catch {
    return undefined;
  }
}
