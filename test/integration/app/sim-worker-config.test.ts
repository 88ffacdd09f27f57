import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { servingUrlOf, REPO_ROOT, SIM_FREE_PORTS, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { TEST_REDIS_URL } from "../../support/redis.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";
import { signBody } from "../../../src/features/events/event-signature.js";
import { startEventRelay } from "../../support/event-relay.js";

interface SimWorkerConfig {
  redis: { url: string; prefix: string };
  server: { host: string; port: number };
  trigger: { token: string };
  projects: { pim: { url: string; events?: { secret: string } }; service: { url: string } }[];
}

describe("config/sim-worker.yaml: `pim-sync sim` + `pim-sync worker` as the README shows", () => {
  let fixtures: Pick<PimSyncFixtures, "redis" | "queues" | "tempDir" | "cli">;

  test.beforeEach(({ redis, queues, tempDir, cli }) => {
    fixtures = { redis, queues, tempDir, cli };
  });

  /** The PIM and service simulators' URLs a started `pim-sync sim` printed. */
  function simulatorUrlsOf(sim: CliProcess): [string, string] {
    const urlAfter = (label: string): string => {
      const found = new RegExp(`${label}\\s+(http://\\S+)`).exec(sim.stdout())?.[1];
      if (found === undefined) throw new Error(`no '${label}' URL in the sim's output:\n${sim.stdout()}`);
      return found;
    };
    return [urlAfter("PIM simulator:"), urlAfter("Configuration-service simulator:")];
  }

  /** The shipped file moved aside: the simulators' URLs in place of its default ports, port 0, the test's key prefix. */
  function movedAside(shipped: SimWorkerConfig, pimUrl: string, serviceUrl: string): SimWorkerConfig {
    return {
      ...shipped,
      redis: { ...shipped.redis, url: TEST_REDIS_URL, prefix: fixtures.redis.prefix },
      server: { ...shipped.server, port: 0 },
      projects: shipped.projects.map((project) => ({
        ...project,
        pim: { ...project.pim, url: project.pim.url.replace("http://127.0.0.1:8081", pimUrl) },
        service: { ...project.service, url: project.service.url.replace("http://127.0.0.1:8082", serviceUrl) },
      })),
    };
  }

  async function stop(proc: CliProcess): Promise<void> {
    proc.signal("SIGTERM");
    await waitForExit(proc, 30_000);
  }

  test("the shipped file, with its ports and key prefix moved aside, runs a sync asked for through the trigger", async () => {
    // Every port bound as 0 and read back, so the test runs beside anything else on this
    // machine, a `pim-sync sim` on the default ports included.
    const sim = fixtures.cli.spawn(["sim", ...SIM_FREE_PORTS]);
    await waitFor(() => sim.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 15_000, what: "the simulators" });
    const [pimUrl, serviceUrl] = simulatorUrlsOf(sim);
    const shipped = parseYaml(await readFile(join(REPO_ROOT, "config", "sim-worker.yaml"), "utf8")) as SimWorkerConfig;
    expect(shipped.trigger.token.length).toBeGreaterThanOrEqual(16);
    // The same file, moved aside: its simulator URLs, port and key prefix.
    const config = movedAside(shipped, pimUrl, serviceUrl);
    expect(config.projects.map((project) => [project.pim.url, project.service.url])).toEqual(
      shipped.projects.map(() => [pimUrl, serviceUrl]),
    );
    const configPath = join(fixtures.tempDir, "sim-worker.yaml");
    await writeFile(configPath, stringifyYaml(config));

    const worker = fixtures.cli.spawn(["worker", "--config", configPath]);
    const serverUrl = await servingUrlOf(worker);

    // The README's curl, with fetch.
    const answer = await fetch(`${serverUrl}/v1/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${shipped.trigger.token}`, "content-type": "application/json" },
      body: JSON.stringify({ project: 67 }),
    });
    expect(answer.status).toBe(202);
    const { job_id: ref } = (await answer.json()) as { job_id: string };
    await waitForJobState(fixtures.queues, 67, ref.slice("67/".length), "completed", 30_000);

    await stop(worker);
    await stop(sim);
    expect(worker.child.exitCode).toBe(0);
  });

  test("`sim --events-to` posts a signed event for each `sim change`, which the worker of the shipped file syncs and `history` shows", async ({
    closeAfter,
  }) => {
    const shipped = parseYaml(await readFile(join(REPO_ROOT, "config", "sim-worker.yaml"), "utf8")) as SimWorkerConfig;
    const secret = shipped.projects[0]?.pim.events?.secret;
    expect(secret).toBeDefined();
    const relay = closeAfter(await startEventRelay());
    const sim = fixtures.cli.spawn([
      "sim",
      ...SIM_FREE_PORTS,
      "--events-to",
      `${relay.origin}/v1/pim-events/67`,
      "--events-secret",
      secret ?? "",
    ]);
    await waitFor(() => sim.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 15_000, what: "the simulators" });
    expect(sim.stdout()).toContain(`PIM events:                      posted to ${relay.origin}/v1/pim-events/67`);
    expect(sim.stdout()).not.toContain(secret);
    const [pimUrl, serviceUrl] = simulatorUrlsOf(sim);
    const config = movedAside(shipped, pimUrl, serviceUrl);
    const configPath = join(fixtures.tempDir, "sim-worker.yaml");
    await writeFile(configPath, stringifyYaml(config));
    const worker = fixtures.cli.spawn(["worker", "--config", configPath]);
    relay.forwardTo(`${await servingUrlOf(worker)}/v1/pim-events/67`);

    const change = fixtures.cli.spawn(["sim", "change", "color", "teal", "--label", "en_US=Teal", "--pim-url", pimUrl]);
    expect(await waitForExit(change, 30_000)).toEqual({ code: 0, signal: null });
    expect(change.stdout()).toBe("color/teal: created\n");
    await waitFor(() => /PIM event attribute-option\.created \S+ posted: 200/.test(sim.stdout()), {
      timeoutMs: 30_000,
      what: "the sim to post the event",
    });
    const [created] = relay.passed;
    expect(created?.signature).toBe(signBody(created?.body ?? "", secret ?? ""));
    expect(JSON.parse(created?.body ?? "{}")).toMatchObject({
      type: "com.akeneo.pim.v1.attribute-option.created",
      data: { attribute_option: { code: "teal", attribute: { code: "color" } } },
    });
    const historyOf = async (): Promise<{ option: string; kind: string; trigger: string }[]> => {
      const history = fixtures.cli.spawn(["history", "--config", configPath, "--project", "67", "--option", "teal", "--json"]);
      expect(await waitForExit(history, 30_000)).toEqual({ code: 0, signal: null });
      return JSON.parse(history.stdout()) as { option: string; kind: string; trigger: string }[];
    };
    await waitFor(async () => (await historyOf()).some((entry) => entry.trigger === "event" && entry.kind !== "deleted"), {
      timeoutMs: 60_000,
      what: "teal written by the targeted sync, in the history",
    });

    // A deletion: the simulator's own control route, as the PIM's API has none.
    const remove = fixtures.cli.spawn(["sim", "change", "color", "teal", "--delete", "--pim-url", pimUrl]);
    expect(await waitForExit(remove, 30_000)).toEqual({ code: 0, signal: null });
    expect(remove.stdout()).toBe("color/teal: deleted\n");
    await waitFor(async () => (await historyOf()).some((entry) => entry.kind === "deleted"), {
      timeoutMs: 60_000,
      what: "teal's deletion in the history",
    });
    expect(relay.passed.map((event) => [(JSON.parse(event.body) as { type: string }).type, event.status])).toEqual([
      ["com.akeneo.pim.v1.attribute-option.created", 200],
      ["com.akeneo.pim.v1.attribute-option.deleted", 200],
    ]);

    await stop(worker);
    await stop(sim);
  });

  test("`sim change` names what the PIM simulator refused, and `--events-to` needs its secret", async () => {
    const sim = fixtures.cli.spawn(["sim", ...SIM_FREE_PORTS]);
    await waitFor(() => sim.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 15_000, what: "the simulators" });
    const pimUrl = /PIM simulator:\s+(http:\/\/\S+)/.exec(sim.stdout())?.[1] ?? "";
    const bad = fixtures.cli.spawn(["sim", "change", "color", "teal", "--label", "en-US=Teal", "--pim-url", pimUrl]);
    expect(await waitForExit(bad, 30_000)).toEqual({ code: 1, signal: null });
    expect(bad.stderr()).toContain(
      'color/teal: the PIM simulator answered 422 Validation failed. labels: The locale "en-US" does not exist.',
    );
    const missing = fixtures.cli.spawn(["sim", "change", "color", "mauve", "--delete", "--pim-url", pimUrl]);
    expect(await waitForExit(missing, 30_000)).toEqual({ code: 1, signal: null });
    expect(missing.stderr()).toContain("404");
    await stop(sim);
    const unsigned = fixtures.cli.spawn(["sim", "--pim-port", "0", "--events-to", "http://127.0.0.1:9/v1/pim-events/67"]);
    expect(await waitForExit(unsigned, 30_000)).toEqual({ code: 2, signal: null });
    expect(unsigned.stderr()).toContain("--events-to needs --events-secret");
  });

  test("the demo says what the untouched manual collection is and suggests the next step", async () => {
    const demo = fixtures.cli.spawn(["demo"]);
    expect(await waitForExit(demo, 60_000)).toEqual({ code: 0, signal: null });

    expect(demo.stdout()).toMatch(
      /^ {2}manual_list: 1 option\(s\).*\n {4}\(untouched: no PIM attribute derives 'manual_list', so it is a collection kept by hand in the service; pim-sync never writes it\)$/m,
    );
    expect(demo.stdout()).toContain("node dist/bin/pim-sync.js worker --config config/sim-worker.yaml");
  });
});
