import { SERVER_LISTEN_DEFAULTS, serverSchema, type ServerSettings, type Settings } from "../../settings/settings-schema.js";

export interface ListenSettings extends Omit<ServerSettings, "host" | "port"> {
  readonly host: string;
  readonly port: number;
  /** One line per deprecated key the config still uses, for the log. */
  readonly deprecations: readonly string[];
}

/**
 * Where the worker's HTTP server listens, or null when neither `server` nor `trigger` is
 * configured (then it serves nothing). `trigger.host`/`trigger.port` are the deprecated aliases
 * of `server.host`/`server.port`: `server`'s win when both are set.
 */
export function listenSettingsOf(settings: Settings): ListenSettings | null {
  const { server, trigger } = settings;
  if (!server && !trigger) return null;
  const deprecations: string[] = [];
  const aliased = (key: "host" | "port"): void => {
    if (trigger?.[key] === undefined) return;
    deprecations.push(
      server?.[key] === undefined
        ? `trigger.${key} is deprecated: use server.${key}`
        : `trigger.${key} is deprecated and ignored: server.${key} is set`,
    );
  };
  aliased("host");
  aliased("port");
  return {
    ...(server ?? serverSchema.parse({})),
    host: server?.host ?? trigger?.host ?? SERVER_LISTEN_DEFAULTS.host,
    port: server?.port ?? trigger?.port ?? SERVER_LISTEN_DEFAULTS.port,
    deprecations,
  };
}
