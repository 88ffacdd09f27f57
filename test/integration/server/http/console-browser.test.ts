/**
 * The operator console as admins and viewers meet it: Debian's Chromium (headless, driven by
 * playwright-core) against a worker with three projects: 67 with a held deletion plan, 68 whose
 * syncs fail (a wrong service token), 99 subscribed to PIM events, one of which deleted an option.
 * It fails, never skips, when Chromium cannot start. Screenshots go to test-results/console/
 * (CI keeps the folder; git ignores it).
 */
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { AxeResults } from "axe-core";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { optionEventData } from "../../../../sim/pim/pim-event-emitter.js";
import { startSimulators, type RunningSimulators } from "../../../../sim/start-simulators.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { testConfigObject } from "../../../support/process-config.js";
import { collectionsOf, openTestQueues, waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { createConfigSafeTestRedis } from "../../../support/process-redis.js";
import type { TestRedis } from "../../../support/redis.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { createRedisHistoryStore } from "../../../../src/stores/history/redis-history-store.js";
import { createRedisHeldStore } from "../../../../src/features/sync/held/redis-held-store.js";
import { pendingHeldPlan } from "../../../support/pending-held-plan.js";

const CHROMIUM = process.env.PIM_SYNC_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = join(process.cwd(), "test-results", "console");
const HELD = 67;
const FAILING = 68;
const EVENTS = 99;
const SECRET = "console-event-secret-0123456789";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer" } as const;
const WAIT_MS = 60_000;
const DELETED_COLOURS = ["blue", "green", "black", "white"];
/** A laptop's screen: every page must read at this size without scrolling sideways. */
const LAPTOP = { width: 1280, height: 800 } as const;
/** A reason as long as a guard's or an upstream's can be, with a word too long for any column. */
const LONG_REASON =
  "kept: the approved deletion cannot be carried out because the service answered 409 for " +
  "https://service.example.invalid/v1/projects/67/collections/color_with_a_very_long_collection_name_indeed/options/" +
  "x".repeat(120) +
  " and the plan stays as it is until an admin looks at it again; ".repeat(6);
const LONG_OPTION = `option_${"y".repeat(90)}`;

describe("the operator console in a browser", () => {
  let browser: Browser;
  let sims: RunningSimulators;
  let redis: TestRedis;
  let queues: JobQueues;
  let worker: AppWorker;
  let url: string;
  let axeSource: string;

  /** Three projects on one PIM: the held plan, the failing project, and the events. */
  beforeAll(async () => {
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
    } catch (error) {
      throw new Error(`Chromium (${CHROMIUM}) did not start; install Debian's chromium package: ${(error as Error).message}`);
    }
    await mkdir(SHOTS, { recursive: true });
    axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    sims = await startSimulators();
    redis = await createConfigSafeTestRedis();
    queues = openTestQueues(redis, [HELD, FAILING, EVENTS]);
    const base = testConfigObject({ pimUrl: sims.pim.url, serviceUrl: sims.service.url, redisPrefix: redis.prefix });
    const [template] = base.projects as Record<string, unknown>[];
    const pim = template?.pim as Record<string, unknown>;
    const service = template?.service as Record<string, unknown>;
    const settings = parseSettings(
      JSON.stringify({
        ...base,
        server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN, VIEWER] } },
        projects: [
          { ...template, id: HELD, deletion_guard: { max_fraction: 0.5, min_count: 2 } },
          { ...template, id: FAILING, service: { ...service, token: "not-the-service-token" } },
          { ...template, id: EVENTS, pim: { ...pim, events: { secret: SECRET, window_ms: 300 } } },
        ],
      }),
      "console-test-config",
      {},
    );
    worker = await startAppWorker({ settings, logger: silentLogger() });
    url = worker.serverUrl ?? "";
    const synced = async (project: number, state: "completed" | "failed"): Promise<void> => {
      const job = await queues.enqueue("sync.run", { project, trigger: "api" });
      await waitForJobState(queues, project, job.jobId, state, WAIT_MS);
    };
    // A sixth colour, for project 99's event to delete (the simulated service has only its colours).
    sims.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 99, labels: { en_US: "Teal" } });
    await Promise.all([synced(HELD, "completed"), synced(EVENTS, "completed"), synced(FAILING, "failed")]);
    // Four of the six colours leave the PIM: project 67's guard holds their deletion.
    const colours = sims.pim.state.attribute_options["color"] ?? [];
    sims.pim.state.attribute_options["color"] = colours.filter((option) => !DELETED_COLOURS.includes(option.code));
    await synced(HELD, "completed");
    // Project 99 hears of teal's removal through the Event Platform and deletes it.
    expect((collectionsOf(sims.service, EVENTS)["color"] ?? []).map((option) => option.name)).toContain("teal");
    sims.pim.events.configure({ url: `${url}/v1/pim-events/${EVENTS}`, secret: SECRET });
    sims.pim.state.attribute_options["color"] = (sims.pim.state.attribute_options["color"] ?? []).filter(
      (option) => option.code !== "teal",
    );
    sims.pim.events.emit("attribute-option.deleted", optionEventData("color", "teal"));
    await waitFor(() => !(collectionsOf(sims.service, EVENTS)["color"] ?? []).some((option) => option.name === "teal"), {
      timeoutMs: WAIT_MS,
      what: "teal deleted from project 99 by its event",
    });
    // What no simulated run writes: a reason, an option code and labels longer than any column.
    await createRedisHistoryStore(redis.redis, redis.prefix, { retentionMs: settings.history.retention_ms }).append(HELD, [
      {
        collection: "color",
        kind: "kept",
        reason: LONG_REASON,
        job: `${HELD}/1`,
        trigger: "admin",
        requestedBy: ADMIN.name,
        at: new Date().toISOString(),
        options: [
          [
            LONG_OPTION,
            { en_US: "Light blue with a hint of grey, as the spring catalogue calls it" },
            { en_US: "Light blue with a hint of grey", de_DE: "Hellblau mit einem Hauch von Grau, wie es der Frühjahrskatalog nennt" },
          ],
        ],
      },
    ]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await queues?.close();
    await sims?.close();
    await redis?.cleanup();
  });

  async function openAs(user: {
    name: string;
    password: string;
  }): Promise<{ context: BrowserContext; page: Page; foreign: string[]; errors: string[] }> {
    const context = await browser.newContext({ viewport: LAPTOP, httpCredentials: { username: user.name, password: user.password } });
    const page = await context.newPage();
    const foreign: string[] = [];
    // Every error the browser's console shows (a missing favicon is one) and every uncaught one of the page's script.
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    // Every request must stay on this origin; a CSP refusal shows as a console message.
    page.on("request", (request) => {
      if (!request.url().startsWith(url)) foreign.push(request.url());
    });
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) foreign.push(message.text());
    });
    return { context, page, foreign, errors };
  }

  /** The page as a laptop shows it: nothing to scroll sideways to, and no error in the console. */
  async function laptopProblems(page: Page, errors: readonly string[]): Promise<{ overflow: string | null; errors: string[] }> {
    // The icon is asked for as the page loads: its error, if any, is in by the load event.
    await page.waitForLoadState("load");
    const widths = await page.evaluate(() => {
      interface Box {
        readonly scrollWidth: number;
        readonly clientWidth: number;
      }
      const { document } = globalThis as unknown as { document: { scrollingElement: Box | null; documentElement: Box } };
      const root = document.scrollingElement ?? document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    return {
      overflow: widths.scroll <= widths.client ? null : `${page.url()}: ${widths.scroll} px wide in a ${widths.client} px window`,
      errors: [...errors],
    };
  }

  /** axe-core's serious and critical findings on the page (evaluated through the DevTools protocol, which the CSP does not govern). */
  async function accessibilityProblems(page: Page): Promise<string[]> {
    await page.evaluate(axeSource);
    const results = await page.evaluate(() => (globalThis as unknown as { axe: { run: () => Promise<AxeResults> } }).axe.run());
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  }

  it("a viewer sees the fleet and the held plan without an approve button, and the server refuses a viewer's approval", async () => {
    // Behind the dashboard's login: nothing without credentials.
    const anonymous = await fetch(`${url}/admin/console`);
    expect([anonymous.status, anonymous.headers.get("www-authenticate")]).toEqual([401, 'Basic realm="pim-sync admin", charset="UTF-8"']);
    const { context, page, foreign, errors } = await openAs(VIEWER);
    try {
      const answer = await page.goto(`${url}/admin/console`);
      expect(answer?.status()).toBe(200);
      const csp = answer?.headers()["content-security-policy"] ?? "";
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toMatch(/unsafe-inline/);
      await page.locator("article[data-plan]").first().waitFor();
      // Before the refused approval below, which the console logs as a failed request.
      expect(await laptopProblems(page, errors)).toEqual({ overflow: null, errors: [] });
      expect(await page.locator("button[data-approve]").count()).toBe(0);
      expect(await page.locator("button[data-sync]").count()).toBe(0);
      await expect(page.locator("article[data-plan]").first().textContent()).resolves.toContain("Only an admin may approve or dismiss");
      const plan = (await page.locator("article[data-plan]").first().getAttribute("data-plan")) ?? "";
      const status = await page.evaluate(
        async (path) => (await fetch(path, { method: "POST" })).status,
        `/admin/api/projects/${HELD}/held/${encodeURIComponent(plan)}/approve`,
      );
      expect(status).toBe(403);
      const held = (await (await page.request.get(`${url}/admin/api/projects/${HELD}/held`)).json()) as { held: { approved: unknown }[] };
      expect(held.held.map((candidate) => candidate.approved)).toEqual([null]);
      expect(foreign).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "viewer-overview.png"), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it("an admin finds what needs a person first, approves the held plan, and sees the next run apply it", async () => {
    const { context, page, foreign, errors } = await openAs(ADMIN);
    try {
      await page.goto(`${url}/admin/console`);
      const rows = page.locator("#fleet tbody tr");
      expect(await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-project")))).toEqual([
        String(FAILING),
        String(HELD),
        String(EVENTS),
      ]);
      const failing = page.locator(`#fleet tr[data-project="${FAILING}"]`);
      await expect(failing.textContent()).resolves.toMatch(/failing/);
      expect(await failing.locator('a[href^="/admin/queue/"]').count()).toBeGreaterThan(0);
      await expect(page.locator(`#fleet tr[data-project="${HELD}"]`).textContent()).resolves.toMatch(
        /held back[\s\S]*4 held[\s\S]*1 pending \(4 options\)/,
      );
      await expect(page.locator(`#fleet tr[data-project="${EVENTS}"]`).textContent()).resolves.toMatch(/last \d+ (s|min) ago/);
      expect(await page.locator("#budgets tbody tr").count()).toBeGreaterThan(0);
      // Each held option with the labels pim-sync last wrote for it.
      const blue = page.locator("article[data-plan] ul.options li").filter({ has: page.locator("code", { hasText: /^blue$/ }) });
      await expect(blue.textContent()).resolves.toMatch(/\bBlue\b/);
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await laptopProblems(page, errors)).toEqual({ overflow: null, errors: [] });
      await page.screenshot({ path: join(SHOTS, "admin-overview.png"), fullPage: true });

      // Keyboard only: focus the approve button and press Enter.
      const plan = page.locator("article[data-plan]").first();
      await plan.locator("button[data-approve]").focus();
      await page.keyboard.press("Enter");
      await waitFor(async () => /^Approved\./.test((await plan.locator(".status").textContent()) ?? ""), {
        timeoutMs: WAIT_MS,
        what: "the page to say the plan is approved",
      });
      await expect(plan.locator(".next").textContent()).resolves.toMatch(/Approved by ada/);
      await plan.locator("button[data-sync]").click();
      await waitFor(async () => /^Applied by job/.test((await plan.locator(".status").textContent()) ?? ""), {
        timeoutMs: WAIT_MS,
        what: "the page to show the approved plan's result",
      });
      const shown = (await plan.locator(".status").textContent()) ?? "";
      for (const colour of DELETED_COLOURS) expect(shown).toContain(`color / ${colour}`);
      const left = (collectionsOf(sims.service, HELD)["color"] ?? []).map((option) => option.name);
      expect(left.filter((name) => DELETED_COLOURS.includes(name))).toEqual([]);
      expect(left).toContain("red");
      expect(foreign).toEqual([]);
      expect(await laptopProblems(page, errors)).toEqual({ overflow: null, errors: [] });
      await page.screenshot({ path: join(SHOTS, "admin-approved.png"), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it("an admin dismisses a held plan from its card: the options stay, the history says who kept them", async () => {
    // A plan as a guard holding deletions back writes it, of an option the service still has.
    const plan = pendingHeldPlan({
      id: "plan-to-dismiss",
      project: HELD,
      collection: "color",
      options: ["red"],
      reason: "would delete 1 of 1 options (more than 50%)",
    });
    await createRedisHeldStore(redis.redis, redis.prefix).save(plan, null);
    const { context, page, foreign, errors } = await openAs(ADMIN);
    try {
      await page.goto(`${url}/admin/console`);
      const card = page.locator('article[data-plan="plan-to-dismiss"]');
      await card.locator("button[data-dismiss]").click();
      await waitFor(async () => (await card.locator(".status").textContent()) === "Dismissed.", {
        timeoutMs: WAIT_MS,
        what: "the page to say the plan is dismissed",
      });
      await expect(card.locator(".next").textContent()).resolves.toMatch(/^Dismissed: these options stay in the service/);
      expect(await card.locator("button[data-approve], button[data-dismiss]").count()).toBe(0);
      const held = (await (await page.request.get(`${url}/admin/api/projects/${HELD}/held`)).json()) as { held: { id: string }[] };
      expect(held.held.map((candidate) => candidate.id)).not.toContain("plan-to-dismiss");
      expect((collectionsOf(sims.service, HELD)["color"] ?? []).map((option) => option.name)).toContain("red");
      const history = (await (await page.request.get(`${url}/admin/api/projects/${HELD}/history?option=red&limit=1`)).json()) as {
        entries: { kind: string; requested_by?: string; job: string }[];
      };
      expect(history.entries[0]).toMatchObject({ kind: "kept", requested_by: ADMIN.name, job: "dismiss/plan-to-dismiss" });
      expect(foreign).toEqual([]);
      expect(await laptopProblems(page, errors)).toEqual({ overflow: null, errors: [] });
    } finally {
      await context.close();
    }
  });

  it("the history finds the option an event deleted, with its trigger, and charts the writes per day", async () => {
    const { context, page, foreign, errors } = await openAs(VIEWER);
    try {
      await page.goto(`${url}/admin/console/projects/${EVENTS}/history`);
      await page.getByLabel("Option").fill("teal");
      await page.getByLabel("Option").press("Enter");
      await page.waitForURL(/option=teal/);
      const rows = page.locator("#history tbody tr");
      // Newest first: the event's deletion, then the first sync's write.
      expect(await rows.count()).toBe(2);
      await expect(rows.nth(1).locator("td").nth(1).textContent()).resolves.toBe("replaced");
      const cells = await rows.first().locator("td").allTextContents();
      expect(cells.slice(1, 4)).toEqual(["deleted", "color", "teal"]);
      expect(cells[7]).toBe("event");
      expect(cells[8]).toMatch(/the PIM no longer has it/);
      await expect(page.locator("#chart-title").textContent()).resolves.toMatch(/Writes per day by kind for project 99/);
      expect(await page.locator(".chart svg rect[fill]").count()).toBeGreaterThan(0);
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(foreign).toEqual([]);
      expect(await laptopProblems(page, errors)).toEqual({ overflow: null, errors: [] });
      await page.screenshot({ path: join(SHOTS, "history.png"), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it("every console page reads on a 1280 x 800 laptop: nothing to scroll sideways, short rows, no console error", async () => {
    const { context, page, foreign, errors } = await openAs(ADMIN);
    try {
      const pages = [
        "/admin/console",
        ...[HELD, FAILING, EVENTS].map((project) => `/admin/console/projects/${project}/history`),
        `/admin/console/projects/${HELD}/history?option=${LONG_OPTION}`,
      ];
      const problems: Record<string, unknown> = {};
      for (const path of pages) {
        const answer = await page.goto(`${url}${path}`);
        expect(answer?.status(), path).toBe(200);
        problems[path] = await laptopProblems(page, errors);
        errors.length = 0;
      }
      expect(problems).toEqual(Object.fromEntries(pages.map((path) => [path, { overflow: null, errors: [] }])));

      // The seeded entry: its reason folds after its start, so its row stays a few lines tall.
      const row = page.locator("#history tbody tr").first();
      await expect(row.locator("td").nth(3).textContent()).resolves.toBe(LONG_OPTION);
      const height = (await row.boundingBox())?.height ?? Number.POSITIVE_INFINITY;
      expect(height).toBeLessThan(220);
      expect(await row.locator("details.more").count()).toBe(1);
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(foreign).toEqual([]);
      // The icon every page's load asks for is there.
      const icon = await page.request.get(`${url}/favicon.ico`);
      expect([icon.status(), icon.headers()["content-type"]]).toEqual([200, "image/svg+xml"]);
      await page.screenshot({ path: join(SHOTS, "history-long-reason.png"), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it("bull-board's page asks nothing of another origin", async () => {
    const { context, page, foreign } = await openAs(ADMIN);
    try {
      await page.goto(`${url}/admin`);
      await page.locator("text=pim-sync jobs").first().waitFor({ timeout: 15_000 });
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
