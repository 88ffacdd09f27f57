import type { HttpClient } from "../../infra/http/http-client.js";
import { loginFailure } from "./login-failure.js";
import { SERVICE_PATHS } from "./service-paths.js";
import { tokenResponseSchema } from "./service-schemas.js";

export type ServiceCredentials =
  { readonly token: string } | { readonly email: string; readonly password: string; readonly tokenName: string };

/**
 * `Authorization: Token <key>`. With email/password the key is obtained once and reused: the
 * service returns the same key for the same token name, so asking again after a 401 is safe.
 */
export function createServiceAuth(credentials: ServiceCredentials, tokenClient: HttpClient) {
  let key: string | undefined = "token" in credentials ? credentials.token : undefined;
  let pending: Promise<string> | undefined;

  async function obtainKey(signal?: AbortSignal): Promise<string> {
    if ("token" in credentials) return credentials.token;
    pending ??= tokenClient
      .send({
        method: "POST",
        url: SERVICE_PATHS.token,
        json: { email: credentials.email, password: credentials.password, token_name: credentials.tokenName },
        schema: tokenResponseSchema,
        idempotent: true,
        signal,
      })
      .then(
        (response) => response.data,
        (error: unknown) => {
          throw loginFailure(error, [credentials.password, credentials.email]);
        },
      )
      .finally(() => {
        pending = undefined;
      });
    key = await pending;
    return key;
  }

  return {
    async authorize(signal?: AbortSignal): Promise<string> {
      return `Token ${key ?? (await obtainKey(signal))}`;
    },
    /** A static token cannot be refreshed; a login-derived one is asked for again once. */
    async onUnauthorized(signal?: AbortSignal): Promise<boolean> {
      if ("token" in credentials) return false;
      key = undefined;
      await obtainKey(signal);
      return true;
    },
  };
}
