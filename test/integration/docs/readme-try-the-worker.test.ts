import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { startEventRelay } from "../../support/event-relay.js";
import { assertCliBuilt, REPO_ROOT, servingUrlOf, SIM_FREE_PORTS, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { TEST_REDIS_URL } from "../../support/redis.js";
import { test } from "../../support/fixtures.js";

/** The bundled CLI as the README calls it. */
const CLI = "node dist/bin/pim-sync.js ";
const SIM_CONFIG = "config/sim-worker.yaml";
const WORKER_ORIGIN = "http://127.0.0.1:8090";

interface Step {
  /** The command as the README writes it (continuation lines joined). */
  readonly command: string;
  /** What its comment promises, after any `terminal N:`; "" when it promises nothing checkable. */
  readonly promise: string;
}

/** The commands of the README's "Try the worker" block, in order, with what each comment promises. */
function tryTheWorkerSteps(readme: string): Step[] {
  const section = readme.slice(readme.indexOf("### Try the worker"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README: no sh block under 'Try the worker'");
  return block
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [command = "", comment = ""] = line.split(/\s+#\s+/, 2);
      return { command: command.replace(/\s+/g, " ").trim(), promise: comment.replace(/^terminal \d+:\s*/, "").trim() };
    });
}

/** `curl -sS [-X METHOD] URL [-H 'k: v']… [-d 'body']` as the README writes it. */
function curlRequest(command: string): { method: string; url: string; headers: Record<string, string>; body: string | undefined } {
  const quoted = [...command.matchAll(/-(H|d) '([^']*)'/g)];
  const headers: Record<string, string> = {};
  for (const [, flag, value = ""] of quoted)
    if (flag === "H") headers[value.slice(0, value.indexOf(":")).toLowerCase()] = value.slice(value.indexOf(":") + 1).trim();
  const url = /\s(http:\/\/\S+)/.exec(command)?.[1];
  if (url === undefined) throw new Error(`README: no URL in ${command}`);
  return { method: /-X (\w+)/.exec(command)?.[1] ?? "GET", url, headers, body: quoted.find(([, flag]) => flag === "d")?.[2] };
}

/**
 * The README's "Try the worker", run in order against the simulators and a worker of the shipped
 * config/sim-worker.yaml, with every port bound as 0 and the key prefix of the test (the README's
 * fixed ports and prefix moved aside), checking what each line promises.
 */
describe("README: Try the worker, in order", () => {
  test("each command shows what its comment and the text after it promise", async ({ cli, redis, queues, tempDir, closeAfter }) => {
    assertCliBuilt();
    const readme = await readFile(join(REPO_ROOT, "README.md"), "utf8");
    const steps = tryTheWorkerSteps(readme);
    expect(steps.map((step) => step.command.split(" ").slice(0, 4).join(" "))).toEqual([
      `${CLI}sim --events-to`,
      `${CLI}worker --config`,
      "curl -sS -X POST",
      "curl -sS -X POST",
      `${CLI}jobs list`,
      "curl -sS http://127.0.0.1:8090/readyz",
      `${CLI}sim change`,
    ]);
    const relay = closeAfter(await startEventRelay());
    let sim: CliProcess | undefined;
    let pimUrl = "";
    let serviceUrl = "";
    let configPath = "";
    let workerUrl = "";
    const jobIds: string[] = [];
    const args = (command: string): string[] => command.slice(CLI.length).split(" ");
    const withConfig = (list: string[]): string[] => list.map((arg) => (arg === SIM_CONFIG ? configPath : arg));

    for (const step of steps) {
      if (step.command.startsWith(`${CLI}sim --events-to`)) {
        const given = args(step.command);
        const eventsTo = given[given.indexOf("--events-to") + 1] ?? "";
        expect(eventsTo).toBe(`${WORKER_ORIGIN}/v1/pim-events/67`);
        sim = cli.spawn([...given.map((arg) => (arg === eventsTo ? `${relay.origin}/v1/pim-events/67` : arg)), ...SIM_FREE_PORTS]);
        const started = sim;
        await waitFor(() => started.stdout().includes("Press Ctrl-C to stop."), { timeoutMs: 30_000, what: "the simulators" });
        pimUrl = /PIM simulator:\s+(http:\/\/\S+)/.exec(started.stdout())?.[1] ?? "";
        serviceUrl = /Configuration-service simulator:\s+(http:\/\/\S+)/.exec(started.stdout())?.[1] ?? "";
        expect(step.promise).toBe("PIM on 8081, service on 8082");
      } else if (step.command.startsWith(`${CLI}worker`)) {
        const shipped = parseYaml(await readFile(join(REPO_ROOT, SIM_CONFIG), "utf8")) as Record<string, unknown> & {
          projects: { pim: Record<string, unknown>; service: Record<string, unknown> }[];
          server: Record<string, unknown>;
          redis: Record<string, unknown>;
        };
        const moved = {
          ...shipped,
          redis: { ...shipped.redis, url: TEST_REDIS_URL, prefix: redis.prefix },
          server: { ...shipped.server, port: 0 },
          projects: shipped.projects.map((project) => ({
            ...project,
            pim: { ...project.pim, url: pimUrl },
            service: { ...project.service, url: serviceUrl },
          })),
        };
        configPath = join(tempDir, "sim-worker.yaml");
        await writeFile(configPath, stringifyYaml(moved));
        const worker = cli.spawn(withConfig(args(step.command)));
        workerUrl = await servingUrlOf(worker);
        relay.forwardTo(`${workerUrl}/v1/pim-events/67`);
      } else if (step.command.startsWith("curl")) {
        const request = curlRequest(step.command);
        const answer = await fetch(request.url.replace(WORKER_ORIGIN, workerUrl), {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        const body = (await answer.json()) as Record<string, unknown>;
        expect(answer.ok, JSON.stringify(body)).toBe(true);
        if (step.promise !== "") expect(body).toEqual(JSON.parse(step.promise));
        // As a person would, the next step after this job ran.
        if (typeof body.job_id === "string") {
          jobIds.push(body.job_id);
          await waitForJobState(queues, 67, body.job_id.slice("67/".length), "completed", 60_000);
        }
      } else if (step.command.startsWith(`${CLI}jobs list`)) {
        const list = cli.spawn(withConfig(args(step.command)));
        expect(await waitForExit(list, 60_000)).toEqual({ code: 0, signal: null });
        // What ran, and how it went: each job asked for above, completed.
        for (const id of jobIds) expect(list.stdout()).toMatch(new RegExp(`^${id}\\s.*completed`, "m"));
      } else if (step.command.startsWith(`${CLI}sim change`)) {
        const change = cli.spawn([...args(step.command), "--pim-url", pimUrl]);
        expect(await waitForExit(change, 30_000)).toEqual({ code: 0, signal: null });
        expect(change.stdout()).toBe(`${step.promise}\n`);
      } else throw new Error(`README: a step this test does not know: ${step.command}`);
    }

    // The text after the block: the event's post, and the history command showing its write.
    const running = sim;
    if (running === undefined) throw new Error("no sim step");
    expect(readme).toContain("terminal 1 prints `PIM event attribute-option.created …\nposted: 200`");
    await waitFor(() => /PIM event attribute-option\.created \S+ posted: 200/.test(running.stdout()), {
      timeoutMs: 30_000,
      what: "the sim to post the event",
    });
    const historyCommand = /`(node dist\/bin\/pim-sync\.js history [^`]*)`\s+shows the write of (\w+) \(trigger `event`\)/.exec(
      readme.replace(/\n/g, " "),
    );
    expect(historyCommand).not.toBeNull();
    const [, history = "", option = ""] = historyCommand ?? [];
    expect(steps.at(-1)?.command).toContain(`sim change color ${option} `);
    await waitFor(
      async () => {
        const run = cli.spawn([...withConfig(args(history)), "--json"]);
        expect(await waitForExit(run, 30_000)).toEqual({ code: 0, signal: null });
        const entries = JSON.parse(run.stdout()) as { option: string; trigger: string }[];
        return entries.some((entry) => entry.option === option && entry.trigger === "event");
      },
      { timeoutMs: 60_000, what: `the history of ${option} to show its write by the event` },
    );
  });
});
