import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage-error.js";
import { messageOf } from "../errors/message-of.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs, with its errors turned into UsageErrors that carry the command's help. */
export function parseCommandArgs<T extends Options>(argv: readonly string[], options: T, help: string) {
  try {
    return parseArgs({
      args: [...argv],
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(messageOf(error), help);
  }
}

export function requireString(value: string | boolean | (string | boolean)[] | undefined, flag: string, help: string): string {
  if (typeof value !== "string" || value === "") throw new UsageError(`${flag} is required`, help);
  return value;
}

export function parseProjectId(value: string | boolean | (string | boolean)[] | undefined, help: string): number {
  const text = requireString(value, "--project", help);
  const id = Number(text);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError(`--project must be a positive whole number, got '${text}'`, help);
  return id;
}

/** Where every command looks for its config file when `--config` is not given. */
export const CONFIG_PATH_ENV = "PIM_SYNC_CONFIG";

/**
 * `--config`, else the PIM_SYNC_CONFIG environment variable: a container sets the variable once
 * and every command run in it (`docker compose exec worker pim-sync jobs list`) finds the file.
 * The flag wins, so a one-off run can point elsewhere without unsetting anything.
 */
export function configPathOf(
  value: string | boolean | (string | boolean)[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
  help: string,
): string {
  if (typeof value === "string" && value !== "") return value;
  if (value !== undefined) throw new UsageError("--config needs a file path", help);
  const fromEnv = env[CONFIG_PATH_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  throw new UsageError(`no configuration file: give --config FILE or set the ${CONFIG_PATH_ENV} environment variable`, help);
}
