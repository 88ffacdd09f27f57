import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { captureIo } from "../../support/capture-io.js";
import { startSyncHarness, type SyncHarness } from "../../support/sync-harness.js";
import { test } from "../../support/fixtures.js";

describe("pim-sync sync and plan", () => {
  let h: SyncHarness;
  let dir: string;
  let configPath: string;

  test.beforeEach(async ({ tempDir, closeAfter }) => {
    h = closeAfter(await startSyncHarness());
    dir = tempDir;
    configPath = join(dir, "config.yaml");
    await writeFile(
      configPath,
      [
        `state_dir: ${join(dir, "state")}`,
        "log_level: silent",
        "projects:",
        "  - id: 67",
        `    pim: { url: "${h.pim.url}", client_id: sim-client, secret: "\${PIM_SECRET}", username: sim-user, password: sim-password }`,
        `    service: { url: "${h.service.url}", token: sim-service-token }`,
      ].join("\n"),
    );
  });

  test("plan --json lists collections, fields and operations, and writes nothing", async () => {
    const io = captureIo({ PIM_SECRET: "sim-secret" });

    const code = await runCli(["plan", "--config", configPath, "--project", "67", "--json"], io);

    expect(code).toBe(0);
    const plan = JSON.parse(io.out()) as {
      collections: { name: string; options: { name: string; label: Record<string, string> }[] }[];
      fields: { name: string; type: string; options_collection_name: string; multiple: boolean; groups: string[] }[];
      operations: { collection: string; action: string; delete_all: boolean }[];
      missing: { collection: string }[];
    };
    expect(plan.collections.find((c) => c.name === "color")?.options).toContainEqual({
      name: "red",
      label: { "de-DE": "Rot", "en-US": "Red", "fr-FR": "Rouge" },
    });
    expect(plan.fields.find((f) => f.name === "material-en_US")).toMatchObject({
      type: "select",
      multiple: true,
      options_collection_name: "material-en_US",
      requirement_level: "optional",
    });
    expect(plan.fields.find((f) => f.name === "color")?.groups.length).toBeGreaterThan(0);
    expect(plan.operations.every((o) => o.action === "replace" && o.delete_all)).toBe(true);
    expect(plan.missing.map((m) => m.collection)).toEqual(["season-mobile"]);
    expect(io.out()).not.toMatch(/"[a-z]+[A-Z][A-Za-z]*":/);
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  test("sync --once writes, then a second run reports nothing to change; --json is machine-readable", async () => {
    const first = captureIo({ PIM_SECRET: "sim-secret" });
    expect(await runCli(["sync", "--config", configPath, "--project", "67", "--once"], first)).toBe(0);
    expect(first.out()).toMatch(/13 collection\(s\) derived, 13 to change/);
    expect(first.out()).toMatch(/season-mobile \(needed by field season-mobile, attribute season\)/);

    const second = captureIo({ PIM_SECRET: "sim-secret" });
    expect(await runCli(["sync", "--config", configPath, "--project", "67", "--once", "--json"], second)).toBe(0);
    const report = JSON.parse(second.out()) as { collections: { action: string }[]; requests: { service: { writes: number } } };
    expect(report.collections.every((c) => c.action === "none")).toBe(true);
    expect(report.requests.service.writes).toBe(0);
    // One key style across every --json output: snake_case, as plan --json and the job data.
    expect(report).toMatchObject({ dry_run: false, duration_ms: expect.any(Number), started_at: expect.any(String), retry_after_ms: null });
    expect(report.requests.service).toHaveProperty("rate_limited");
    expect(JSON.stringify(report)).not.toMatch(/"[a-z]+[A-Z][A-Za-z]*":/);

    // The earlier camelCase shape, until 0.3.0.
    const legacy = captureIo({ PIM_SECRET: "sim-secret" });
    expect(await runCli(["sync", "--config", configPath, "--project", "67", "--once", "--json", "--json-keys", "camel"], legacy)).toBe(0);
    expect(JSON.parse(legacy.out())).toMatchObject({ dryRun: false, durationMs: expect.any(Number) });
    expect(legacy.err()).toContain("deprecated: --json-keys camel is removed in 0.3.0");
  });

  test("exits 2 naming every problem of a bad config, before any request", async () => {
    await writeFile(configPath, ["projects:", "  - id: 67", "    pim: { url: not-a-url, client_id: x }", "    colour: red"].join("\n"));
    const io = captureIo();

    const code = await runCli(["sync", "--config", configPath, "--project", "67", "--once"], io);

    expect(code).toBe(2);
    expect(io.err()).toMatch(/projects\[0\]\.pim\.url/);
    expect(io.err()).toMatch(/projects\[0\]\.pim\.secret/);
    expect(io.err()).toMatch(/projects\[0\]\.service/);
    expect(io.err()).toMatch(/unknown key 'colour'/);
    expect(h.pim.requests).toEqual([]);
  });

  test("exits 2 for an unset environment variable, an unknown project or a missing --once", async () => {
    const unset = captureIo();
    expect(await runCli(["sync", "--config", configPath, "--project", "67", "--once"], unset)).toBe(2);
    expect(unset.err()).toMatch(/PIM_SECRET is not set/);

    const unknown = captureIo({ PIM_SECRET: "sim-secret" });
    expect(await runCli(["sync", "--config", configPath, "--project", "5", "--once"], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/project 5 is not in/);

    const noOnce = captureIo({ PIM_SECRET: "sim-secret" });
    expect(await runCli(["sync", "--config", configPath, "--project", "67"], noOnce)).toBe(2);
    expect(noOnce.err()).toMatch(/--once/);
  });

  test("applies the project's deletion_guard thresholds, not the defaults", async () => {
    // Stricter than the default (half, at least 10): one deletion out of five is held back.
    await writeFile(configPath, `${await readFile(configPath, "utf8")}\n    deletion_guard: { max_fraction: 0.1, min_count: 1 }\n`);
    expect(await runCli(["sync", "--config", configPath, "--project", "67", "--once"], captureIo({ PIM_SECRET: "sim-secret" }))).toBe(0);
    const color = h.pim.state.attribute_options["color"] ?? [];
    h.pim.state.attribute_options["color"] = color.filter((option) => option.code !== "red");

    const io = captureIo({ PIM_SECRET: "sim-secret" });
    const code = await runCli(["sync", "--config", configPath, "--project", "67", "--once", "--json"], io);

    expect(code).toBe(3);
    const report = JSON.parse(io.out()) as { collections: { collection: string; held_back: { names: string[] } | null }[] };
    expect(report.collections.find((c) => c.collection === "color")?.held_back?.names).toEqual(["red"]);
    expect(h.optionsOf("color").map((o) => o.name)).toContain("red");
  });

  test("prints help for the program and each command", async () => {
    const io = captureIo();
    expect(await runCli(["--help"], io)).toBe(0);
    expect(io.out()).toMatch(/Commands:/);
    for (const command of ["sync", "plan", "sim", "demo"]) {
      const help = captureIo();
      expect(await runCli([command, "--help"], help)).toBe(0);
      expect(help.out()).toMatch(new RegExp(`Usage: pim-sync ${command}`));
    }
    const bad = captureIo();
    expect(await runCli(["frobnicate"], bad)).toBe(2);
  });

  test("never prints secrets, even when the PIM rejects them", async () => {
    const io = captureIo({ PIM_SECRET: "wrong-secret-value" });

    const code = await runCli(["sync", "--config", configPath, "--project", "67", "--once"], io);

    expect(code).toBe(1);
    expect(io.err()).toMatch(/PIM rejected/);
    expect(io.out() + io.err()).not.toContain("wrong-secret-value");
    expect(io.out() + io.err()).not.toContain("sim-password");
  });
});
