import { spawn } from "node:child_process";

/** Where `.ci/run` installs it (Debian's `prometheus` package). */
const PROMTOOL = process.env.PIM_SYNC_PROMTOOL ?? "/usr/bin/promtool";

/** `promtool check metrics` over a scrape's text: its exit code and what it printed. */
export async function promtoolCheckMetrics(text: string): Promise<{ readonly code: number | null; readonly output: string }> {
  const child = spawn(PROMTOOL, ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  child.stdin.end(text);
  return { code: await exited, output };
}
