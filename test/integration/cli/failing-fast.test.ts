import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { waitForExit, type CliProcess } from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { REFUSED_PORT } from "../../support/refused-port.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

const RETRYING = "request failed; retrying";

describe("after a failure, stop the rest: no nested retries, no retries that cannot help", () => {
  let fixtures: Pick<PimSyncFixtures, "sims" | "tempDir" | "cli">;

  test.beforeEach(({ sims, tempDir, cli }) => {
    fixtures = { sims, tempDir, cli };
  });

  async function run(args: readonly string[], config: { pimUrl?: string; serviceToken?: string }): Promise<CliProcess> {
    const object = testConfigObject({
      pimUrl: config.pimUrl ?? fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: null,
      stateDir: join(fixtures.tempDir, "state"),
      logLevel: "warn",
      // Three attempts per request, short waits: a nested loop would show 3 × 3.
      http: { max_attempts: 3, base_delay_ms: 10, max_delay_ms: 50 },
      ...(config.serviceToken === undefined ? {} : { serviceExtras: { token: config.serviceToken } }),
    });
    const path = join(fixtures.tempDir, "config.json");
    await writeFile(path, JSON.stringify(object));
    const proc = fixtures.cli.spawn([...args, "--config", path]);
    await waitForExit(proc, 60_000);
    return proc;
  }

  const retries = (proc: CliProcess, upstream?: string) =>
    proc.logs().filter((line) => line.msg === RETRYING && (upstream === undefined || line.upstream === upstream));

  test("the service refuses the token (401): the sync ends and its PIM reads are cancelled, not retried", async () => {
    // A slow PIM, so its structure reads are still in flight when the service answers 401.
    fixtures.sims.pim.setLatencyMs(300);
    const proc = await run(["sync", "--project", "67", "--once"], { serviceToken: "not-the-service-token" });

    expect(proc.child.exitCode).toBe(1);
    expect(proc.stderr()).toMatch(/pim-sync sync: failed: \[service GET\] .* 401/);
    expect(retries(proc)).toEqual([]);
  });

  test("an unreachable PIM: the token request retries on its own, the API request does not retry it again", async () => {
    const proc = await run(["plan", "--project", "67"], { pimUrl: `http://127.0.0.1:${REFUSED_PORT}` });

    expect(proc.child.exitCode).toBe(1);
    expect(proc.stderr()).toContain("ECONNREFUSED");
    // max_attempts 3: each login retries twice on its own, and no request retries a failed
    // login. Nested, each of the 3 attempts of a read would run a login of 3 attempts. A second
    // login may start for reads that got their connection slot as the first one failed.
    expect(retries(proc, "pim")).toEqual([]);
    const loginRetries = retries(proc, "pim-auth").length;
    expect(loginRetries).toBeGreaterThanOrEqual(2);
    expect(loginRetries).toBeLessThanOrEqual(4);
  });

  test("a PIM host name that does not resolve (ENOTFOUND) is not retried at all", async () => {
    const proc = await run(["plan", "--project", "67"], { pimUrl: "http://pim-sync-test.invalid:8081" });

    expect(proc.child.exitCode).toBe(1);
    expect(proc.stderr()).toContain("ENOTFOUND");
    expect(retries(proc)).toEqual([]);
  });
});
