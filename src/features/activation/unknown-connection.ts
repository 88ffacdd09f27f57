import { HttpError } from "../../infra/http/http-error.js";
import type { ActivationClient } from "../../upstreams/activation/activation-client.js";
import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** A connection id the Activation account does not have; `known` lists the ones it has. */
export class UnknownConnection extends PimSyncError {
  constructor(
    readonly connection: string,
    readonly known: readonly string[],
  ) {
    super(
      `connection '${connection}' is not a channel connection of this Activation account; known: ${known.length === 0 ? "(none)" : known.join(", ")}`,
      {
        code: "ACTIVATION_UNKNOWN_CONNECTION",
        // The account's list is read again before a refusal; a job meeting it retries, as it always has.
        retryable: true,
      },
    );
    this.name = "UnknownConnection";
  }
}

/** Throws UnknownConnection when the API's list does not hold `connection`. */
export async function requireKnownConnection(client: ActivationClient, connection: string, signal?: AbortSignal): Promise<void> {
  const ids = (await client.listConnections(signal)).connections.map((item) => item.id);
  if (!ids.includes(connection)) throw new UnknownConnection(connection, ids);
}

/**
 * Runs `work`; a 404 from it is checked against the API's connection list, so an id the account
 * does not have is reported as such (with the ones it has) instead of as the API's bare 404. One
 * list read, only when a 404 came: the usual path costs nothing.
 */
export async function explainingUnknownConnection<T>(
  client: ActivationClient,
  connection: string,
  work: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) await requireKnownConnection(client, connection, signal);
    throw error;
  }
}
