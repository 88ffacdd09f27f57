import { EMPTY_REDACTOR, type Redactor } from "../infra/secrets/redactor.js";
import type { CliIo } from "./cli-io.js";

/**
 * The io runCli hands to a command: everything written to stdout and stderr goes through the
 * redactor of the config the command loaded (see loadCommandSettings), error lines printed by
 * runCli itself included. Until a config is loaded there is no secret to know of.
 */
export function redactingIo(io: CliIo): CliIo {
  let redactor: Redactor = EMPTY_REDACTOR;
  return {
    ...io,
    stdout: redactingStream(io.stdout, () => redactor),
    stderr: redactingStream(io.stderr, () => redactor),
    useRedactor(next) {
      redactor = next;
    },
  };
}

function redactingStream<S extends NodeJS.WritableStream>(stream: S, current: () => Redactor): S {
  return new Proxy(stream, {
    get(target, key) {
      if (key === "write") {
        return (chunk: unknown, ...rest: unknown[]): boolean => {
          const redactor = current();
          const scrubbed = typeof chunk === "string" && !redactor.empty ? redactor.redact(chunk) : chunk;
          return (target.write as (...args: unknown[]) => boolean)(scrubbed, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
