import type { Redactor } from "../infra/secrets/redactor.js";

/** Where a command writes and what it reads from its environment; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM: long commands stop cleanly. */
  readonly signal?: AbortSignal;
  /** Set by runCli (see redacting-io.ts): told the secrets of the config a command loaded. */
  readonly useRedactor?: (redactor: Redactor) => void;
}

export function writeLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${text}\n`);
}
