import type { Logger } from "pino";
import { createAgent } from "../../infra/http/create-agent.js";
import { retryPolicyOf } from "../../infra/http/retry-policy-of.js";
import type { ProjectSettings, Settings } from "../../settings/settings-schema.js";
import { createEventPlatformClient, type EventPlatformClient } from "../../upstreams/event-platform/event-platform-client.js";
import { createPimAuth } from "../../upstreams/pim/pim-auth.js";
import { pimCredentialsOf } from "../../upstreams/pim/pim-credentials-of.js";

const BEARER = "Bearer ";

/**
 * What `events --create` talks to for one project: the PIM's login (the platform's API takes a
 * PIM token of the project's connection) and the Event Platform, over one pool of two
 * connections. Made by the app (`App.eventPlatform`), which releases it.
 */
export interface EventPlatformSession {
  /** A PIM token of the project's connection, without its `Bearer ` prefix. */
  pimToken(signal?: AbortSignal): Promise<string>;
  /** The platform's client, acting with that token. */
  platform(pimToken: string): EventPlatformClient;
  close(): Promise<void>;
}

export function createEventPlatformSession(args: {
  readonly settings: Settings;
  readonly project: ProjectSettings;
  readonly logger: Logger;
}): EventPlatformSession {
  const { settings, project, logger } = args;
  const dispatcher = createAgent({ connections: 2 });
  const retry = retryPolicyOf(settings);
  const timeoutMs = settings.http.timeout_ms;
  const auth = createPimAuth({
    baseUrl: project.pim.url,
    credentials: pimCredentialsOf(project.pim),
    dispatcher,
    logger,
    retry,
    timeoutMs,
  });
  return {
    async pimToken(signal) {
      const authorization = await auth.authorize(signal);
      return authorization.startsWith(BEARER) ? authorization.slice(BEARER.length) : authorization;
    },
    platform(pimToken) {
      return createEventPlatformClient({
        baseUrl: settings.event_platform.url,
        pimUrl: project.pim.url,
        clientId: project.pim.client_id,
        pimToken,
        dispatcher,
        logger,
        retry,
        timeoutMs,
      });
    },
    close: () => dispatcher.close(),
  };
}
