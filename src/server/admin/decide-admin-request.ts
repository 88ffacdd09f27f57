import type { AdminRouteRule } from "./admin-route-rules.js";
import type { AdminRole } from "./authenticate-admin.js";

export interface AdminRequestFacts {
  readonly method: string;
  /** The route the router matched (`request.routeOptions.url`); undefined when none did. */
  readonly route: string | undefined;
  /** Its parameters, decoded by the router. */
  readonly params: unknown;
  readonly role: AdminRole;
}

export type AdminDecision =
  | { readonly allowed: true; readonly rule: AdminRouteRule | null }
  | { readonly allowed: false; readonly status: 403 | 405; readonly error: string; readonly allow?: string };

const READS = new Set(["GET", "HEAD"]);

/**
 * Whether an authenticated user may make this request, decided on the route the router matched
 * and its decoded parameters (never on the raw URL, which can spell the same route many ways).
 * Denied by default: a route or method the table does not list is refused. A read of no route
 * at all passes (it is answered 404); anything else there is refused.
 */
export function decideAdminRequest(rules: readonly AdminRouteRule[], facts: AdminRequestFacts): AdminDecision {
  const method = facts.method === "HEAD" ? "GET" : facts.method;
  if (facts.route === undefined) {
    return READS.has(method)
      ? { allowed: true, rule: null }
      : { allowed: false, status: 403, error: `${facts.method} of no admin route: refused` };
  }
  const forRoute = rules.filter((rule) => rule.url === facts.route);
  const rule = forRoute.find((candidate) => candidate.method === method);
  if (rule === undefined) {
    if (forRoute.length === 0)
      return { allowed: false, status: 403, error: `${facts.method} ${facts.route} is not in the admin route table: refused` };
    const allow = forRoute.map((candidate) => candidate.method).join(", ");
    return { allowed: false, status: 405, error: `${facts.route} answers ${allow} only`, allow };
  }
  if (rule.role === "nobody")
    return { allowed: false, status: 403, error: `${facts.method} ${facts.route} is refused: ${rule.why ?? "not allowed here"}` };
  if (rule.role === "admin" && facts.role !== "admin") return { allowed: false, status: 403, error: "a viewer may only read" };
  if (rule.params !== undefined) {
    const parsed = rule.params.safeParse(facts.params);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      return { allowed: false, status: 403, error: `${facts.method} ${facts.route} refused: ${problems}` };
    }
  }
  return { allowed: true, rule };
}
