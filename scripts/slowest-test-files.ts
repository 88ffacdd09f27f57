/**
 * The slowest test files of a vitest JSON report (`--reporter=json`), which `.ci/run` keeps in
 * test-results/: where the suite's time goes, from the report rather than from memory.
 */
import { relative } from "node:path";
import { z } from "zod";

const reportSchema = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      startTime: z.number(),
      endTime: z.number(),
      status: z.string(),
      assertionResults: z.array(z.unknown()),
    }),
  ),
});

export interface TimedTestFile {
  file: string;
  seconds: number;
  tests: number;
  status: string;
}

/** The `count` longest-running files of the report, longest first, paths relative to `root`. */
export function slowestTestFiles(report: unknown, count: number, root: string): TimedTestFile[] {
  return reportSchema
    .parse(report)
    .testResults.map((result) => ({
      file: relative(root, result.name),
      seconds: (result.endTime - result.startTime) / 1000,
      tests: result.assertionResults.length,
      status: result.status,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
}

/** One line a file: seconds, test count, status and path, aligned for a CI log. */
export function renderSlowestTestFiles(files: readonly TimedTestFile[]): string {
  return files
    .map(
      ({ file, seconds, tests, status }) =>
        `${seconds.toFixed(1).padStart(7)} s ${String(tests).padStart(4)} tests  ${status.padEnd(7)} ${file}`,
    )
    .join("\n");
}
