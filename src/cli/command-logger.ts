import type { Logger } from "pino";
import { createLogger } from "../infra/log/create-logger.js";
import { redactorOfSettings } from "../infra/secrets/redactor-of-settings.js";
import type { Settings } from "../settings/settings-schema.js";

/** A command's logger: the config's level, every configured secret redacted. */
export function commandLogger(settings: Settings): Logger {
  return createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings) });
}
