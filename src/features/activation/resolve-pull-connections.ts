import type { ActivationClient } from "../../upstreams/activation/activation-client.js";
import type { ActivationSettings } from "../../settings/activation-settings-schema.js";

/** The connections the worker pulls: the configured list, or every connection the API lists (`all`). */
export async function resolvePullConnections(
  settings: ActivationSettings,
  client: ActivationClient,
  signal?: AbortSignal,
): Promise<string[]> {
  if (settings.orders.connections !== "all") return [...settings.orders.connections];
  const list = await client.listConnections(signal);
  return list.connections.map((connection) => connection.id);
}
