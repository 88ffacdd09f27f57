import { pino, type DestinationStream, type Logger } from "pino";

/**
 * Paths pino blanks out wherever they appear in a log object: credentials must never reach
 * logs, even when a whole config section or request is logged by mistake.
 */
export const REDACTED_PATHS: readonly string[] = [
  "secret",
  "password",
  "token",
  "access_token",
  "refresh_token",
  "authorization",
  "*.secret",
  "*.password",
  "*.token",
  "*.client_id",
  "*.access_token",
  "*.refresh_token",
  "*.authorization",
  "*.*.secret",
  "*.*.password",
  "*.*.token",
  "headers.authorization",
  "req.headers.authorization",
];

export function createLogger(options: { level: string; destination?: DestinationStream; name?: string }): Logger {
  return pino(
    {
      name: options.name ?? "pim-sync",
      level: options.level,
      redact: { paths: [...REDACTED_PATHS], censor: "[redacted]" },
    },
    options.destination ?? pino.destination({ dest: 2, sync: false }),
  );
}
