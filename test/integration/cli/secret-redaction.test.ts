import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { waitForExit } from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

/** What an operator wrote in the config; it must never come back in any output. */
const PASSWORD = "Pa55-Very-Secret-9f3k";
const EMAIL = "ops@example.com";
const TOKEN_PATH = "/api/v1/auth/token/";

describe("secrets in login errors and config syntax errors", () => {
  let fixtures: Pick<PimSyncFixtures, "sims" | "tempDir" | "cli">;

  test.beforeEach(({ sims, tempDir, cli }) => {
    fixtures = { sims, tempDir, cli };
  });

  /** `sync --once` with service email/password, every log line on stderr; returns all output. */
  async function syncWithLogin(): Promise<{ code: number | null; output: string }> {
    const config = testConfigObject({
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: null,
      stateDir: join(fixtures.tempDir, "state"),
      logLevel: "trace",
    });
    const [project] = config.projects as Record<string, unknown>[];
    if (!project) throw new Error("test config without a project");
    project.service = { url: fixtures.sims.service.url, email: EMAIL, password: PASSWORD, token_name: "pim-sync" };
    const path = join(fixtures.tempDir, "login.json");
    await writeFile(path, JSON.stringify(config));
    const proc = fixtures.cli.spawn(["sync", "--config", path, "--project", "67", "--once"]);
    const { code } = await waitForExit(proc, 30_000);
    return { code, output: proc.stdout() + proc.stderr() };
  }

  test("a refused login says the status and DRF's reason, not the rest of an answer echoing the password", async () => {
    fixtures.sims.service.faults.failNext(
      { path: TOKEN_PATH },
      {
        status: 400,
        body: {
          non_field_errors: ["Unable to log in with provided credentials."],
          password: [`'${PASSWORD}' is not the password`],
          email: [EMAIL],
        },
      },
    );

    const { code, output } = await syncWithLogin();

    expect(code).toBe(1);
    expect(output).not.toContain(PASSWORD);
    expect(output).toMatch(/service login refused: 400 \(Unable to log in with provided credentials\.\)/);
    expect(fixtures.sims.service.requests.filter((r) => r.path === TOKEN_PATH)).toHaveLength(1);
  });

  test("a reason that repeats the password is dropped: status only", async () => {
    fixtures.sims.service.faults.failNext(
      { path: TOKEN_PATH },
      { status: 400, body: { non_field_errors: [`password ${PASSWORD.toUpperCase()} is wrong`] } },
    );

    const { code, output } = await syncWithLogin();

    expect(code).toBe(1);
    expect(output.toLowerCase()).not.toContain(PASSWORD.toLowerCase());
    expect(output).toMatch(/service login refused: 400(?! \()/);
  });

  test("a login failing with 5xx pages that echo the request is retried and reported without them", async () => {
    fixtures.sims.service.faults.failNext(
      { path: TOKEN_PATH },
      { status: 502, times: 10, body: { error: "bad gateway", request: { email: EMAIL, password: PASSWORD } } },
    );

    const { code, output } = await syncWithLogin();

    expect(code).toBe(1);
    expect(output).not.toContain(PASSWORD);
    expect(output).toMatch(/service login refused: 502/);
    // Retried (max_attempts 3) and logged, without the body.
    expect(fixtures.sims.service.requests.filter((r) => r.path === TOKEN_PATH).length).toBeGreaterThanOrEqual(3);
    expect(output).toMatch(/request failed; retrying/);
  });

  test("a YAML syntax error on a line holding a secret reports line and column, not the line", async () => {
    const path = join(fixtures.tempDir, "broken.yaml");
    await writeFile(
      path,
      [
        "log_level: trace",
        "projects:",
        "  - id: 67",
        `    pim: { url: "${fixtures.sims.pim.url}", client_id: c, secret: "${PASSWORD}, username: u, password: p }`,
        `    service: { url: "${fixtures.sims.service.url}", token: t }`,
        "",
      ].join("\n"),
    );
    const proc = fixtures.cli.spawn(["sync", "--config", path, "--project", "67", "--once"]);
    const { code } = await waitForExit(proc, 30_000);
    const output = proc.stdout() + proc.stderr();

    expect(code).toBe(2);
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain(PASSWORD.slice(0, 8));
    expect(output).toMatch(/not valid YAML or JSON: line \d+, column \d+: /);
    expect(fixtures.sims.pim.requests).toEqual([]);
  });
});
