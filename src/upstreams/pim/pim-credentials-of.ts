import type { ProjectSettings } from "../../settings/settings-schema.js";
import type { PimCredentials } from "./pim-auth.js";

/** A project's PIM connection credentials, as its settings hold them. */
export function pimCredentialsOf(pim: ProjectSettings["pim"]): PimCredentials {
  return { clientId: pim.client_id, secret: pim.secret, username: pim.username, password: pim.password };
}
