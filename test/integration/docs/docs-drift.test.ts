import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { COMMAND_NAMES } from "../../../src/cli/main.js";
import { targetOfEvent } from "../../../src/features/events/event-target.js";
import { pimEventSchema } from "../../../src/features/events/pim-event.js";
import { JOB_DEFINITIONS } from "../../../src/jobs/catalog/job-catalog.js";
import { parseSettings } from "../../../src/settings/load-settings.js";
import { pimEventsSchema } from "../../../src/settings/pim-events-settings-schema.js";
import { SIM_ACTIVATION_CONNECTION_ID, SIM_ACTIVATION_TOKEN } from "../../../sim/activation/activation-simulator.js";
import { startAppWorker } from "../../support/app-worker.js";
import { REPO_ROOT } from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { silentLogger } from "../../support/silent-logger.js";
import { workerMetricNames } from "../../support/worker-metric-names.js";
import { test } from "../../support/fixtures.js";

/**
 * The docs name what the code has: every CLI command, HTTP route, metric and job. Like the
 * configuration table (scripts/write-settings-reference.ts), the lists come from the code itself,
 * so a command, route, metric or job added without its line in the docs fails here, naming it.
 */

const doc = (name: string): Promise<string> => readFile(join(REPO_ROOT, "docs", name), "utf8");

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The lines from a `## ` heading that starts with `title` to the next `## ` heading. */
function section(text: string, title: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`## ${title}`));
  if (start < 0) throw new Error(`no '## ${title}' section`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

/** Whether a Markdown table row's first cell is `` `name` `` (or starts with `` `name `` and more words). */
function inTableFirstColumn(text: string, name: string): boolean {
  return new RegExp(`^\\|\\s*\`${escape(name)}[\` ]`, "m").test(text);
}

/**
 * `GET /v1/jobs/{project}/{id}` as the docs may write it: parameters as `{name}` (OpenAPI's
 * spelling, in http-api.md) or `:name` (fastify's, in operations.md), a query string after it,
 * never a longer path.
 */
function routePattern(method: string, path: string): RegExp {
  const parts = path.split(/\{[^}]+\}/).map(escape);
  return new RegExp(`\\b${method}\\s+${parts.join("(?:\\{[^}/\\s]+\\}|:[A-Za-z_]+)")}(?![A-Za-z0-9_{:/-])`);
}

/** A metric is named when it appears in backticks, or a `prefix_*` in backticks covers it. */
function namesMetric(text: string, name: string): boolean {
  if (text.includes(`\`${name}\``)) return true;
  return [...text.matchAll(/`([a-z_]+)\*`/g)].some(([, prefix]) => prefix !== undefined && name.startsWith(prefix));
}

describe("the docs name everything the code has", () => {
  test("docs/cli.md names every command, in a heading or in its command table", async () => {
    const cli = await doc("cli.md");
    const headings = cli.split("\n").filter((line) => line.startsWith("#"));
    const missing = COMMAND_NAMES.filter(
      (name) => !inTableFirstColumn(cli, name) && !headings.some((line) => new RegExp(`\\b${escape(name)}\\b`).test(line)),
    );
    expect(missing, "commands of src/cli/main.ts that docs/cli.md names in no heading and no row of its command table").toEqual([]);
  });

  test("docs/worker.md's job catalog names every job of the catalog", async () => {
    const catalog = section(await doc("worker.md"), "Job catalog");
    const missing = JOB_DEFINITIONS.map((definition) => definition.name).filter((name) => !inTableFirstColumn(catalog, name));
    expect(missing, "jobs of src/jobs/catalog/job-catalog.ts missing from the job table of docs/worker.md's 'Job catalog' section").toEqual(
      [],
    );
  });

  test("docs/operations.md names every metric of the worker's registry", async () => {
    const names = workerMetricNames();
    expect(names).toContain("pim_sync_sync_runs_total");
    const operations = await doc("operations.md");
    const missing = names.filter((name) => !namesMetric(operations, name));
    expect(missing, "metrics of src/server/metrics/ that docs/operations.md does not name (in backticks, or by a `prefix_*`)").toEqual([]);
  });

  test("docs/pim-events.md's example event is one the receiver accepts, targeting the option it names", async () => {
    const [, block] = /## An event, as the platform sends it[\s\S]*?```http\n([\s\S]*?)```/.exec(await doc("pim-events.md")) ?? [];
    const body = block?.slice(block.indexOf("\n{") + 1);
    expect(body, "the example's JSON body in docs/pim-events.md").toBeDefined();
    const event = pimEventSchema.parse(JSON.parse(body ?? ""));
    expect(targetOfEvent(event)).toEqual({ kind: "option", attribute: "color", code: "red" });
  });

  test("docs/operations.md and docs/http-api.md name every route of a worker with every surface configured", async ({
    sims,
    redis,
    tempDir,
    workers,
  }) => {
    const config = testConfigObject({
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      stateDir: tempDir,
      trigger: { token: "docs-drift-trigger-token-0123456789" },
      server: {
        host: "127.0.0.1",
        port: 0,
        metrics_token: "docs-drift-metrics-token-0123456789",
        admin: { users: [{ name: "ada", password: "ada-password-0123", role: "admin" }] },
      },
    });
    const activation = {
      url: sims.activation.url,
      pim_connection_id: SIM_ACTIVATION_CONNECTION_ID,
      access_token: SIM_ACTIVATION_TOKEN,
      orders: { sink: { type: "file", dir: join(tempDir, "orders") } },
    };
    const parsed = parseSettings(JSON.stringify({ ...config, activation }), "docs-drift-config", {});
    const settings = {
      ...parsed,
      projects: parsed.projects.map((project) => ({
        ...project,
        pim: { ...project.pim, events: pimEventsSchema.parse({ secret: "docs-drift-events-secret-0123456789" }) },
      })),
    };
    const worker = workers.keep(await startAppWorker({ settings, logger: silentLogger() }));
    if (worker.serverUrl === null) throw new Error("the worker serves no HTTP");

    // Every route the worker serves is in its OpenAPI document, or hidden on purpose (the worker
    // does not start otherwise: describe-http-api.ts). Hidden, and so not checked here:
    // - bull-board's dashboard: its pages (/admin, /admin/queue/..., /admin/job-schedulers,
    //   /admin/metrics-history...), static files (/admin/static/...) and own API
    //   (/admin/api/queues/..., /admin/api/job-schedulers, /admin/api/redis/stats), which change
    //   with bull-board's versions and are decided by the admin route table (its own test);
    // - the 405 answers of a POST route's other methods, and HEAD routes (the PIM-events
    //   route's included): they share the path of a described route, which is checked.
    const answer = await fetch(`${worker.serverUrl}/openapi.json`);
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(routes.length).toBeGreaterThan(15);

    const missing: Record<string, string[]> = {};
    for (const file of ["operations.md", "http-api.md"]) {
      const text = await doc(file);
      missing[file] = routes
        .filter(({ method, path }) => !routePattern(method, path).test(text))
        .map(({ method, path }) => `${method} ${path}`);
    }
    expect(missing, "routes of the worker's /openapi.json that each doc does not name (as METHOD /path, with :param or {param})").toEqual({
      "operations.md": [],
      "http-api.md": [],
    });
  });
});
