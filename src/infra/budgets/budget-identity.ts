import { createHash } from "node:crypto";
import type { ActivationSettings } from "../../settings/activation-settings-schema.js";
import type { PimConnectionSettings, ServiceConnectionSettings } from "../../settings/settings-schema.js";

/**
 * Who an upstream counts a request against: the budget belongs to that, not to a project or a
 * process. Projects whose settings give the same identity share one budget, in this process
 * and, through Redis, in every process of the deployment.
 *
 * An identity goes into Redis key names and logs, so it never holds a credential: a derived one
 * is a digest (`service-h…`), a named one (`service.budget` etc. in the config) is `service-n-<name>`.
 */
export type BudgetKind = "service" | "pim-instance" | "pim-connection" | "activation";

/** Base URLs compare by scheme, host, port and path, without a trailing slash. */
function normalUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
}

function identity(kind: BudgetKind, named: string | undefined, parts: readonly string[]): string {
  if (named !== undefined) return `${kind}-n-${named}`;
  // NUL-separated so that no two different part lists give the same text.
  const digest = createHash("sha256")
    .update([kind, ...parts].join("\u0000"))
    .digest("hex");
  return `${kind}-h${digest.slice(0, 24)}`;
}

/** The service account: its base URL and its token or login email. */
export function serviceBudgetOf(service: ServiceConnectionSettings): string {
  const who = "token" in service ? `token\u0000${service.token}` : `email\u0000${service.email.toLowerCase()}`;
  return identity("service", service.budget, [normalUrl(service.url), who]);
}

/** The PIM instance: its base URL (100 requests/s, 10 in flight, 3 option writes/s). */
export function pimInstanceBudgetOf(pim: PimConnectionSettings): string {
  return identity("pim-instance", pim.instance_budget, [normalUrl(pim.url)]);
}

/** The PIM API connection: base URL, client id and user name (4 in flight). */
export function pimConnectionBudgetOf(pim: PimConnectionSettings): string {
  return identity("pim-connection", pim.connection_budget, [normalUrl(pim.url), pim.client_id, pim.username]);
}

/** The Activation API connection: base URL and PIM connection id. */
export function activationBudgetOf(activation: ActivationSettings): string {
  return identity("activation", undefined, [normalUrl(activation.url), activation.pim_connection_id]);
}
