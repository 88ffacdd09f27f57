/** `${NAME}` or `${NAME:-default}`, with an optional leading `$` that escapes it. */
const REFERENCE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` in every string value of a parsed config document. `$${` escapes a literal
 * `${`. Unset variables are collected (with the key path that uses them) rather than thrown one
 * at a time, so a user sees every missing variable at once.
 *
 * `${VAR:-default}` takes the default when VAR is unset or empty, as compose and the shell read
 * it: the same config then runs in the compose stack (`redis://redis:6379`) and against another
 * Redis (REDIS_URL set) without an edit. The default is taken as written (no `${...}` inside it).
 */
export function interpolateEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  path: readonly (string | number)[] = [],
  missing: string[] = [],
  options: InterpolateOptions = {},
): { value: unknown; missing: string[] } {
  if (typeof value === "string") {
    const replaced = value.replace(REFERENCE, (match, escape: string, name: string, fallback: string | undefined) => {
      if (escape === "$") return match.slice(1);
      const found = env[name];
      if (fallback !== undefined && (found === undefined || found === "")) return fallback;
      if (found === undefined) {
        if (options.mayBeUnset?.(path)) return unsetPlaceholder(name);
        missing.push(`${formatPath(path)}: environment variable ${name} is not set`);
        return "";
      }
      return found;
    });
    return { value: replaced, missing };
  }
  if (Array.isArray(value)) {
    return { value: value.map((item, index) => interpolateEnv(item, env, [...path, index], missing, options).value), missing };
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = interpolateEnv(item, env, [...path, key], missing, options).value;
    return { value: out, missing };
  }
  return { value, missing };
}

export interface InterpolateOptions {
  /** Keys whose variables may be unset: they get a placeholder instead of a problem. */
  readonly mayBeUnset?: (path: readonly (string | number)[]) => boolean;
}

/**
 * What an unset variable becomes where it is allowed: long enough for every length rule of a
 * secret, and saying what it is should it ever reach a request or a message.
 */
export function unsetPlaceholder(name: string): string {
  return `<environment variable ${name} is not set>`;
}

export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`)).join("");
}
