import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage-error.js";
import { messageOf } from "../core/errors/message-of.js";
import { closestName } from "./closest-name.js";
import { writeLine, type CliIo } from "./cli-io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
/** One option's value as parseArgs gives it. */
type OptionValue = string | boolean | (string | boolean)[] | undefined;

/**
 * node:util parseArgs, with its errors turned into UsageErrors that carry the command's help; an
 * unknown option is named with the one it most likely stands for (`--limt`: did you mean --limit?).
 */
export function parseCommandArgs<T extends Options>(argv: readonly string[], options: T, help: string) {
  const all = { ...options, help: { type: "boolean", short: "h" } } satisfies Options;
  try {
    return parseArgs({ args: [...argv], options: all, allowPositionals: true, strict: true });
  } catch (error) {
    const unknown = (error as { code?: unknown }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? unknownOption(argv, all) : undefined;
    throw new UsageError(unknown === undefined ? messageOf(error) : unknownOptionMessage(unknown, Object.keys(all)), help);
  }
}

/**
 * parseCommandArgs, with `--help` answered: the help is printed on stdout and the answer is null,
 * on which the command ends with exit code 0.
 */
export function readCommandArgs<T extends Options>(argv: readonly string[], io: Pick<CliIo, "stdout">, options: T, help: string) {
  const parsed = parseCommandArgs(argv, options, help);
  if (!("help" in parsed.values) || parsed.values.help !== true) return parsed;
  writeLine(io.stdout, help);
  return null;
}

/** `unknown option '--limt' (did you mean --limit?)`; a long name given with one dash is found too. */
export function unknownOptionMessage(given: string, names: readonly string[]): string {
  const bare = given.replace(/^--?/, "");
  const meant = given.startsWith("--") || bare.length > 1 ? closestName(bare, names) : undefined;
  const exact = !given.startsWith("--") && names.includes(bare) ? bare : meant;
  return `unknown option '${given}'${exact === undefined ? "" : ` (did you mean --${exact}?)`}`;
}

/**
 * The first option of `argv` that `options` does not know, as typed (without a `=value`): the
 * values of string options are skipped, and nothing after `--` is an option.
 */
export function unknownOption(argv: readonly string[], options: Options): string | undefined {
  const shorts = new Map(Object.entries(options).flatMap(([name, option]) => (option.short ? [[option.short, name] as const] : [])));
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (arg === "--") return undefined;
    if (arg.startsWith("--")) {
      const [name = ""] = arg.slice(2).split("=", 1);
      const option = options[name];
      if (option === undefined) return `--${name}`;
      if (option.type === "string" && !arg.includes("=")) index += 1;
    } else if (arg.startsWith("-") && arg.length > 1) {
      // `-abc` is three short flags, the last of which may take the rest as its value (`-cfile`).
      for (let at = 1; at < arg.length; at += 1) {
        const name = shorts.get(arg.charAt(at));
        if (name === undefined) return at === 1 ? arg : `-${arg.charAt(at)}`;
        if (options[name]?.type === "string") {
          if (at === arg.length - 1) index += 1;
          break;
        }
      }
    }
  }
  return undefined;
}

export function requireString(value: OptionValue, flag: string, help: string): string {
  if (typeof value !== "string" || value === "") throw new UsageError(`${flag} is required`, help);
  return value;
}

export function parseProjectId(value: OptionValue, help: string): number {
  const text = requireString(value, "--project", help);
  const id = Number(text);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError(`--project must be a positive whole number, got '${text}'`, help);
  return id;
}

/**
 * What a command about one project reads first: the config file's path (`--config`, else
 * PIM_SYNC_CONFIG) and `--project`, checked in that order.
 */
export function projectArgsOf(
  values: { readonly config?: OptionValue; readonly project?: OptionValue },
  env: Readonly<Record<string, string | undefined>>,
  help: string,
): { readonly configPath: string; readonly projectId: number } {
  const configPath = configPathOf(values.config, env, help);
  return { configPath, projectId: parseProjectId(values.project, help) };
}

/** Where every command looks for its config file when `--config` is not given. */
export const CONFIG_PATH_ENV = "PIM_SYNC_CONFIG";

/**
 * `--config`, else the PIM_SYNC_CONFIG environment variable: a container sets the variable once
 * and every command run in it (`docker compose exec worker pim-sync jobs list`) finds the file.
 * The flag wins, so a one-off run can point elsewhere without unsetting anything.
 */
export function configPathOf(value: OptionValue, env: Readonly<Record<string, string | undefined>>, help: string): string {
  if (typeof value === "string" && value !== "") return value;
  if (value !== undefined) throw new UsageError("--config needs a file path", help);
  const fromEnv = env[CONFIG_PATH_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  throw new UsageError(`no configuration file: give --config FILE or set the ${CONFIG_PATH_ENV} environment variable`, help);
}
