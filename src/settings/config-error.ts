/** A configuration problem: the message lists every wrong key and why. Exit code 2 in the CLI. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(`Invalid configuration in ${source}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}
