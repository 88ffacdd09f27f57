import { spawn } from "node:child_process";

/** Where `.ci/run` installs it (Debian's `prometheus` package). */
const PROMTOOL = process.env.PIM_SYNC_PROMTOOL ?? "/usr/bin/promtool";

export interface PromtoolRun {
  readonly code: number | null;
  readonly output: string;
}

/**
 * promtool with `args`, `stdin` written to it: its exit code and what it printed. A missing
 * promtool fails the test that asked, saying how to get it: `.ci/run` installs it, so a run
 * without it is a machine to fix, not a test to leave out.
 */
export async function runPromtool(args: readonly string[], stdin = ""): Promise<PromtoolRun> {
  const child = spawn(PROMTOOL, [...args], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(`promtool is not at ${PROMTOOL}: install Debian's prometheus package (bash .ci/run does), or set PIM_SYNC_PROMTOOL`)
          : error,
      ),
    );
    child.on("close", (code) => resolve(code));
  });
  child.stdin.end(stdin);
  return { code: await exited, output };
}

/** `promtool check metrics` over a scrape's text. */
export function promtoolCheckMetrics(text: string): Promise<PromtoolRun> {
  return runPromtool(["check", "metrics"], text);
}
