/**
 * What a failed command prints on stdout under `--json`, so a script always has an object to
 * parse: `{"error": {"kind", "message", "exit_code", "problems"?}}`. The same message goes to
 * stderr as one line.
 */
export type FailureKind = "usage" | "config" | "redis_unavailable" | "interrupted" | "failure";

export function jsonErrorText(failure: {
  readonly kind: FailureKind;
  readonly message: string;
  readonly exitCode: number;
  readonly problems?: readonly string[] | undefined;
}): string {
  return JSON.stringify({
    error: {
      kind: failure.kind,
      message: failure.message,
      exit_code: failure.exitCode,
      ...(failure.problems ? { problems: failure.problems } : {}),
    },
  });
}
