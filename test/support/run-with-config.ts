import type { CliFixture } from "./fixtures.js";
import { waitForExit } from "./process-cli.js";

/** How a command ended: its exit code and what it wrote. */
export interface CommandRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Runs `pim-sync <args> --config <configPath>` to its end (30 s at the most). */
export async function runWithConfig(cli: CliFixture, configPath: string, args: readonly string[]): Promise<CommandRun> {
  const proc = cli.spawn([...args, "--config", configPath]);
  const exit = await waitForExit(proc, 30_000);
  return { code: exit.code, out: proc.stdout(), err: proc.stderr() };
}
