/** `${NAME}` or `${NAME:-default}`, with an optional leading `$` that escapes it. */
const REFERENCE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` in every string value of a parsed config document. `$${` escapes a literal
 * `${`. Unset variables are collected (with the key path that uses them) rather than thrown one
 * at a time, so a user sees every missing variable at once; `unsetPaths` names the keys they
 * left short, so that the schema's complaint about the same key (too short, empty) is not
 * reported as a second problem.
 *
 * `${VAR:-default}` takes the default when VAR is unset or empty, as compose and the shell read
 * it: the same config then runs in the compose stack (`redis://redis:6379`) and against another
 * Redis (REDIS_URL set) without an edit. The default is taken as written (no `${...}` inside it).
 */
export function interpolateEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  options: InterpolateOptions = {},
): { value: unknown; missing: string[]; unsetPaths: string[] } {
  const missing: string[] = [];
  const unsetPaths: string[] = [];
  const walk = (item: unknown, path: readonly (string | number)[]): unknown => {
    if (typeof item === "string") {
      let unset = false;
      const replaced = item.replace(REFERENCE, (match, escape: string, name: string, fallback: string | undefined) => {
        if (escape === "$") return match.slice(1);
        const found = env[name];
        if (fallback !== undefined && (found === undefined || found === "")) return fallback;
        if (found === undefined) {
          if (options.mayBeUnset?.(path)) return unsetPlaceholder(name);
          missing.push(`${formatPath(path)}: environment variable ${name} is not set`);
          unset = true;
          return "";
        }
        return found;
      });
      if (unset) unsetPaths.push(formatPath(path));
      return replaced;
    }
    if (Array.isArray(item)) return item.map((element, index) => walk(element, [...path, index]));
    if (item !== null && typeof item === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, element] of Object.entries(item)) out[key] = walk(element, [...path, key]);
      return out;
    }
    return item;
  };
  return { value: walk(value, []), missing, unsetPaths };
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
