import { ConfigError } from "../../src/settings/config-error.js";

/** An error class that lists what was wrong with an input, one problem a line. */
type ProblemsError = abstract new (...args: never[]) => { readonly problems: readonly string[] };

/**
 * The problems of the error `run` throws (a ConfigError unless told otherwise). Anything else,
 * or no error at all, fails the test: the input was meant to be refused.
 */
export function problemsOf(run: () => unknown, kind: ProblemsError = ConfigError): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof kind) return error.problems;
    throw error;
  }
  throw new Error(`expected a ${kind.name}`);
}
