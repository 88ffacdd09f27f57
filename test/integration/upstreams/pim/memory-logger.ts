import { pino, type Logger } from "pino";

/** A pino logger at the most verbose level whose output stays in memory, for leak checks. */
export function createMemoryLogger(): { readonly logger: Logger; text(): string } {
  const lines: string[] = [];
  const logger = pino({ level: "trace" }, { write: (line: string) => void lines.push(line) });
  return { logger, text: () => lines.join("") };
}
