import { serverSchema, type ServerSettings, type Settings } from "../settings/settings-schema.js";

export const DEFAULT_SERVER_HOST = "127.0.0.1";
export const DEFAULT_SERVER_PORT = 8090;

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
    deprecations.push(server?.[key] === undefined ? `trigger.${key} is deprecated: use server.${key}` : `trigger.${key} is deprecated and ignored: server.${key} is set`);
  };
  aliased("host");
  aliased("port");
  return {
    ...(server ?? serverSchema.parse({})),
    host: server?.host ?? trigger?.host ?? DEFAULT_SERVER_HOST,
    port: server?.port ?? trigger?.port ?? DEFAULT_SERVER_PORT,
    deprecations,
  };
}
