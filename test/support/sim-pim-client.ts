import { createLogger } from "../../src/infra/log/create-logger.js";
import { createAgent } from "../../src/infra/http/create-agent.js";
import { EMPTY_REDACTOR } from "../../src/infra/secrets/redactor.js";
import { createPimClient, type PimClient } from "../../src/upstreams/pim/pim-client.js";
import { DEFAULT_PIM_CLIENT_LIMITS } from "./default-settings.js";
import { SIM_CREDENTIALS } from "./process-config.js";

/** A PIM client of the simulator at `url`, with its credentials and the default limits: how a test changes the PIM as a user would. */
export function simPimClient(url: string): PimClient {
  return createPimClient({
    ...DEFAULT_PIM_CLIENT_LIMITS,
    baseUrl: url,
    dispatcher: createAgent({ connections: 4 }),
    credentials: {
      clientId: SIM_CREDENTIALS.pim.client_id,
      secret: SIM_CREDENTIALS.pim.secret,
      username: SIM_CREDENTIALS.pim.username,
      password: SIM_CREDENTIALS.pim.password,
    },
    logger: createLogger({ level: "silent", redactor: EMPTY_REDACTOR }),
  });
}
