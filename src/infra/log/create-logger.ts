import { pino, type DestinationStream, type Logger } from "pino";
import type { Redactor } from "../secrets/redactor.js";

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

/**
 * The process' logger. Besides the key paths above, every line is scrubbed as a whole, once
 * serialised, of every configured secret (`redactor`, see src/infra/secrets/): message, bindings, `err`
 * and its stack included, whatever key holds them. A redactor with nothing to look for costs
 * nothing.
 */
export function createLogger(options: { level: string; redactor: Redactor; destination?: DestinationStream; name?: string }): Logger {
  const { redactor } = options;
  return pino(
    {
      name: options.name ?? "pim-sync",
      level: options.level,
      redact: { paths: [...REDACTED_PATHS], censor: "[redacted]" },
      ...(redactor.empty ? {} : { hooks: { streamWrite: (line: string) => redactor.redact(line) } }),
    },
    options.destination ?? pino.destination({ dest: 2, sync: false }),
  );
}
