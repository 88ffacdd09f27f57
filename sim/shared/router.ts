/**
 * A tiny method + path router. Patterns are literal segments and `:name` parameters; a trailing
 * slash is a segment of its own, so `/token/` and `/token` are different routes, as they are for
 * the real services (Django answers PATCHes without the slash with an error).
 */
export type RouteParams = Readonly<Record<string, string>>;

export interface RouteMatch<H> {
  /** The pattern as registered, for per-route statistics. */
  readonly pattern: string;
  readonly params: RouteParams;
  readonly handler: H;
}

export type RouteLookup<H> =
  | { readonly kind: "found"; readonly match: RouteMatch<H> }
  | { readonly kind: "method-not-allowed"; readonly allowed: readonly string[] }
  | { readonly kind: "not-found" };

export interface Router<H> {
  add(method: string, pattern: string, handler: H): void;
  lookup(method: string, path: string): RouteLookup<H>;
}

interface Route<H> {
  readonly method: string;
  readonly pattern: string;
  readonly segments: readonly string[];
  readonly handler: H;
}

export function createRouter<H>(): Router<H> {
  const routes: Route<H>[] = [];
  return {
    add(method, pattern, handler) {
      routes.push({ method: method.toUpperCase(), pattern, segments: pattern.split("/"), handler });
    },
    lookup(method, path) {
      const segments = path.split("/");
      const allowed: string[] = [];
      for (const route of routes) {
        const params = matchSegments(route.segments, segments);
        if (params === undefined) continue;
        if (route.method === method.toUpperCase()) {
          return { kind: "found", match: { pattern: route.pattern, params, handler: route.handler } };
        }
        allowed.push(route.method);
      }
      return allowed.length > 0 ? { kind: "method-not-allowed", allowed } : { kind: "not-found" };
    },
  };
}

function matchSegments(pattern: readonly string[], path: readonly string[]): RouteParams | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] ?? "";
    const actual = path[index] ?? "";
    if (expected.startsWith(":")) {
      if (actual === "") return undefined;
      const decoded = safeDecode(actual);
      if (decoded === undefined) return undefined;
      params[expected.slice(1)] = decoded;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A parameter the pattern guarantees; throws only on a mistake in the simulator's own routes. */
export function paramOf(params: RouteParams, name: string): string {
  const value = params[name];
  if (value === undefined) throw new Error(`route has no parameter "${name}"`);
  return value;
}
