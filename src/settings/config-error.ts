import { PimSyncError } from "../core/errors/pim-sync-error.js";
/** A configuration problem: the message lists every wrong key and why. Exit code 2 in the CLI. */
export class ConfigError extends PimSyncError {
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(`Invalid configuration in ${source}:\n${problems.map((p) => `  - ${p}`).join("\n")}`, {
      code: "CONFIG_INVALID",
      retryable: false,
    });
    this.name = "ConfigError";
    this.problems = problems;
  }
}
