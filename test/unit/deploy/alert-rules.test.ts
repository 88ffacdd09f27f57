import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { runPromtool } from "../../support/promtool-check.js";
import { workerMetricNames } from "../../support/worker-metric-names.js";

/**
 * deploy/prometheus/pim-sync-alerts.yml is what a team loads as it is: it loads in Prometheus
 * (promtool), each rule fires and stays quiet as its unit tests say, and it uses only what the
 * worker exports and docs/operations.md explains.
 */

const root = new URL("../../../", import.meta.url);
const RULES = "deploy/prometheus/pim-sync-alerts.yml";
const RULE_TESTS = "deploy/prometheus/pim-sync-alerts.test.yml";
const read = (path: string): string => readFileSync(new URL(path, root), "utf8");

const rulesFileSchema = z.object({
  groups: z.array(z.object({ name: z.string(), rules: z.array(z.object({ alert: z.string(), expr: z.string() })).min(1) })).min(1),
});
const rules = rulesFileSchema.parse(parse(read(RULES))).groups.flatMap((group) => group.rules);

/** Prometheus's own series (one per scrape target), not the worker's. */
const PROMETHEUS_SERIES = new Set(["up"]);
const PROMQL_WORDS = new Set(["and", "or", "unless", "offset", "bool"]);

/**
 * The metric names a PromQL expression selects: its words once label matchers, ranges and
 * label lists (`by (...)`, `on (...)`) are taken out, less function names (a word before `(`)
 * and operators.
 */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const words = [...bare.matchAll(/(?<![\w:.])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()/g)].map((match) => match[1] ?? "");
  return [...new Set(words.filter((word) => !PROMQL_WORDS.has(word)))];
}

/** The names in the first column of docs/operations.md's metric table (`prefix_*` included). */
function metricTable(): string[] {
  const operations = read("docs/operations.md");
  const section = operations.slice(operations.indexOf("## Metrics"), operations.indexOf("\n## ", operations.indexOf("## Metrics") + 1));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ""));
}

const inTable = (table: readonly string[], name: string): boolean =>
  table.some((entry) => (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name));

describe(`the alert rules (${RULES})`, () => {
  // promtool takes seconds when the machine is busy: a timeout is no measure of the rules.
  it("load in Prometheus (`promtool check rules`)", { timeout: 60_000 }, async () => {
    const check = await runPromtool(["check", "rules", fileURLToPath(new URL(RULES, root))]);
    expect(check.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(check.code).toBe(0);
  });

  it("fire and stay quiet as their unit tests say (`promtool test rules`)", { timeout: 60_000 }, async () => {
    const run = await runPromtool(["test", "rules", fileURLToPath(new URL(RULE_TESTS, root))]);
    expect(run.output).toContain("SUCCESS");
    expect(run.code).toBe(0);
  });

  it("each have a unit test that expects them to fire", () => {
    const tests = read(RULE_TESTS);
    const untested = rules
      .filter((rule) => !new RegExp(`alertname: ${rule.alert}\\n\\s+exp_alerts:`).test(tests))
      .map((rule) => rule.alert);
    expect(untested, `rules with no test in ${RULE_TESTS} that expects an alert`).toEqual([]);
  });

  it("are each named in docs/operations.md", () => {
    const operations = read("docs/operations.md");
    const missing = rules.filter((rule) => !operations.includes(`\`${rule.alert}\``)).map((rule) => rule.alert);
    expect(missing, "rules that docs/operations.md does not name in backticks").toEqual([]);
  });

  it("use only metrics the worker exports and docs/operations.md's metric table names", () => {
    const used = [...new Set(rules.flatMap((rule) => metricsOf(rule.expr)))];
    // The reading itself: these are in the file, so a reading that finds none of them is broken.
    expect(used).toEqual(
      expect.arrayContaining(["up", "pim_sync_ready", "pim_sync_schedule_period_seconds", "process_start_time_seconds"]),
    );
    const exported = new Set(workerMetricNames());
    const table = metricTable();
    const worker = used.filter((name) => !PROMETHEUS_SERIES.has(name));
    expect(
      worker.filter((name) => !exported.has(name)),
      "metrics the rules use that the worker's registry does not have",
    ).toEqual([]);
    expect(
      worker.filter((name) => !inTable(table, name)),
      "metrics the rules use that docs/operations.md's metric table does not list",
    ).toEqual([]);
  });
});
