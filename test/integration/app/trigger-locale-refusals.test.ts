import { describe, expect } from "vitest";
import { allJobs } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { createTriggerClient } from "../../support/trigger-client.js";
import { test } from "../../support/fixtures.js";
import { startWorkerCommand, type ProcessTestFixtures } from "../../support/worker-process.js";

const TOKEN = "trigger-token-of-the-locale-test";
/** One request of the PIM structure read: the locales list is read once per structure read. */
const LOCALES_ROUTE = "GET /api/rest/v1/locales";
/** `es_ES` is in the simulator's catalogue but disabled. */
const SPANISH_LABEL = { project: 67, attribute: "color", options: [{ name: "azul", label: { es_ES: "Azul" } }] };

describe("pim-sync worker as a process: trigger requests refused for a label locale, and the PIM structure reads they cost", () => {
  let fixtures: ProcessTestFixtures;
  let triggerUrl = "";
  const client = createTriggerClient(() => triggerUrl);

  test.beforeEach(({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
  });

  async function startWorker(addOptions: Readonly<Record<string, unknown>>): Promise<void> {
    ({ url: triggerUrl } = await startWorkerCommand(fixtures, {
      trigger: { token: TOKEN },
      server: { host: "127.0.0.1", port: 0 },
      addOptions,
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    }));
  }

  const structureReads = (): number => fixtures.sims.pim.stats().byRoute[LOCALES_ROUTE] ?? 0;

  test("100 requests refused for a disabled locale (50 at once on an empty cache, then 50 one by one) cost one structure read", async () => {
    await startWorker({ catalog_cache_ms: 600_000, locale_recheck_ms: 600_000 });
    const before = structureReads();

    const burst = await Promise.all(
      Array.from({ length: 50 }, () => client.call("/v1/add-options", { token: TOKEN, body: SPANISH_LABEL })),
    );
    const oneByOne = [];
    for (let i = 0; i < 50; i += 1) oneByOne.push(await client.call("/v1/add-options", { token: TOKEN, body: SPANISH_LABEL }));

    for (const answer of [...burst, ...oneByOne]) {
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ errors: ["options.0.label.es-ES: 'es-ES' is not among the project's locales (de-DE, en-US, fr-FR)"] });
    }
    expect(structureReads() - before).toBe(1);
    expect(await allJobs(fixtures.queues)).toEqual([]);
  });

  test("a locale enabled in the PIM after the cache was filled is accepted once locale_recheck_ms has passed", async () => {
    await startWorker({ catalog_cache_ms: 600_000, locale_recheck_ms: 500 });
    expect((await client.call("/v1/add-options", { token: TOKEN, body: SPANISH_LABEL })).status).toBe(400);

    const spanish = fixtures.sims.pim.state.locales.find((locale) => locale.code === "es_ES");
    if (!spanish) throw new Error("the simulator's catalogue has no es_ES");
    spanish.enabled = true;

    const accepted = await waitFor(
      async () => {
        const answer = await client.call("/v1/add-options", { token: TOKEN, body: SPANISH_LABEL });
        if (answer.status === 202) return answer;
        expect(answer.status).toBe(400);
        return undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: "the request with an es-ES label to be accepted" },
    );
    expect(accepted.json).toEqual({ job_id: expect.stringMatching(/^67\/\d+$/), status: "queued" });
    expect((await allJobs(fixtures.queues)).map((job) => job.name)).toEqual(["options.add"]);
  });
});
