/**
 * Input the CLI must refuse as bad input (exit 2, the usage exit code, naming what is wrong)
 * rather than fail on (exit 1) or take in part: the real `pim-sync` process, built in dist/.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { MAX_PAYLOAD_DEPTH } from "../../../src/upstreams/activation/activation-assumptions.js";
import { ACTIVATION_ENV, activationConfig, writeActivationConfig } from "../features/activation/activation-test-config.js";
import { waitForExit } from "../../support/process-cli.js";
import { allJobs } from "../../support/process-jobs.js";
import { writeTestConfig } from "../../support/process-config.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";
import { addOptionsArgs } from "../../support/add-options-args.js";

const PROJECT = 67;

/** `{"sku": ..., "a": {"a": ... 1}}`, `depth` levels in all. */
function nestedOffer(sku: string, depth: number): string {
  return `{"sku":"${sku}",${'"a":{'.repeat(depth - 1)}"end":1${"}".repeat(depth)}`;
}

describe("bad input: exit 2 naming the problem, nothing sent or queued", () => {
  let fixtures: Pick<PimSyncFixtures, "cli" | "sims" | "redis" | "queues" | "tempDir">;

  test.beforeEach(({ cli, sims, redis, queues, tempDir }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
  });

  test("activation offers put: an offer nested 3,000 levels deep (a stack overflow once, exit 1) is refused before anything walks it", async () => {
    const config = await writeActivationConfig(
      fixtures.tempDir,
      activationConfig({ activationUrl: fixtures.sims.activation.url, stateDir: join(fixtures.tempDir, "state") }),
    );
    const file = join(fixtures.tempDir, "offers.ndjson");
    await writeFile(file, `${nestedOffer("SKU-1", 3)}\n${nestedOffer("SKU-2", 3_000)}\n${nestedOffer("SKU-3", MAX_PAYLOAD_DEPTH + 1)}\n`);
    const proc = fixtures.cli.spawn(["activation", "offers", "put", "--config", config, "--connection", "amazon-fr", "--file", file], {
      env: ACTIVATION_ENV,
    });
    expect((await waitForExit(proc, 60_000)).code, proc.stderr()).toBe(2);
    const nested = `nests deeper than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, the most an offer or shipment may (at a.a.a.a.a.a…)`;
    expect(proc.stderr()).toContain(`line 2: ${nested}`);
    expect(proc.stderr()).toContain(`line 3: ${nested}`);
    expect(proc.stderr()).not.toContain("line 1");
    expect(proc.stderr()).not.toMatch(/stack|RangeError/i);
    expect(fixtures.sims.activation.offerBatches("amazon-fr")).toEqual([]);

    // At the limit it is taken.
    await writeFile(file, `${nestedOffer("SKU-1", MAX_PAYLOAD_DEPTH)}\n`);
    const taken = fixtures.cli.spawn(["activation", "offers", "put", "--config", config, "--connection", "amazon-fr", "--file", file], {
      env: ACTIVATION_ENV,
    });
    expect((await waitForExit(taken, 60_000)).code, taken.stderr()).toBe(0);
    expect(fixtures.sims.activation.offerBatches("amazon-fr")).toHaveLength(1);
  });

  test("add-options: a __proto__ label key (dropped unseen once, and the request queued) is refused, naming the key", async () => {
    const config = await writeTestConfig(fixtures.tempDir, {
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: fixtures.redis.prefix,
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    });
    const proc = fixtures.cli.spawn([
      ...addOptionsArgs(config, {
        project: String(PROJECT),
        attribute: "color",
        options: '[{"name": "teal", "label": {"__proto__": "Teal"}}]',
      }),
    ]);
    expect((await waitForExit(proc, 60_000)).code, proc.stderr()).toBe(2);
    expect(proc.stderr()).toContain("options.0.label.__proto__: label keys must be locale codes with a region");
    expect(await allJobs(fixtures.queues, PROJECT)).toEqual([]);
  });
});
