/**
 * `node dist/scripts/print-slowest-test-files.js <report.json> [count]`: run by `.ci/run` after
 * `npm test`, passed or failed, to print the slowest test files of the kept report (default 20).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { renderSlowestTestFiles, slowestTestFiles } from "./slowest-test-files.js";

const [reportPath, countText = "20"] = process.argv.slice(2);
if (reportPath === undefined) {
  process.stderr.write("usage: print-slowest-test-files <vitest-report.json> [count]\n");
  process.exit(2);
}
const root = fileURLToPath(new URL("../../", import.meta.url));
const report: unknown = JSON.parse(await readFile(reportPath, "utf8"));
const count = Number(countText);
process.stdout.write(`== the ${count} slowest test files (${reportPath})\n`);
process.stdout.write(`${renderSlowestTestFiles(slowestTestFiles(report, count, root))}\n`);
