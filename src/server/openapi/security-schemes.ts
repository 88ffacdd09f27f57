/**
 * How each surface proves who is calling, as OpenAPI security schemes. The trigger routes and
 * `/metrics` take different tokens (a scraper cannot queue jobs), so they are two schemes.
 */
export const SECURITY_SCHEMES = {
  triggerToken: { type: "http", scheme: "bearer", description: "`trigger.token` from the config." },
  metricsToken: { type: "http", scheme: "bearer", description: "`server.metrics_token` from the config (only when it is set)." },
  adminBasic: { type: "http", scheme: "basic", description: "An admin user's name and password (`server.admin.users`)." },
  adminToken: { type: "http", scheme: "bearer", description: "An admin user's `token` (`server.admin.users[].token`), for scripts." },
} as const;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;
/** One way to be let in (OpenAPI's security requirement): every scheme named must be satisfied. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

const requirement = (name: SecuritySchemeName): SecurityRequirement => ({ [name]: [] });

export const TRIGGER_SECURITY: readonly SecurityRequirement[] = [requirement("triggerToken")];
export const METRICS_SECURITY: readonly SecurityRequirement[] = [requirement("metricsToken")];
/** Either one: a user's password or a user's token. */
export const ADMIN_SECURITY: readonly SecurityRequirement[] = [requirement("adminBasic"), requirement("adminToken")];
