/**
 * The job dashboard as an operator meets it: Debian's Chromium (headless, driven by
 * playwright-core) logs in to /admin, finds a failed add-options job and retries it, under the
 * dashboard's Content-Security-Policy. When Chromium cannot start the test fails with the reason:
 * it is never skipped (`.ci/run` installs the `chromium` package).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";
import { test } from "../../../support/fixtures.js";

const CHROMIUM = process.env.PIM_SYNC_CHROMIUM ?? "/usr/bin/chromium";
const PROJECT = 67;
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer" } as const;
/** A laptop's screen, as in the console's browser test. */
const LAPTOP = { width: 1280, height: 800 } as const;
const RETRY_BUTTON = 'ul[class*="jobActions"] button:has(svg.lucide-refresh-cw)';

describe("the job dashboard in a browser", () => {
  let browser: Browser;
  let dir: string;
  let fixtures: InProcessTestFixtures;

  beforeAll(async () => {
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
    } catch (error) {
      throw new Error(`Chromium (${CHROMIUM}) did not start; install Debian's chromium package: ${(error as Error).message}`);
    }
    dir = await mkdtemp(join(tmpdir(), "pim-sync-dashboard-"));
  });

  let failed = false;
  afterAll(async () => {
    await browser?.close();
    // The screenshots stay (outside the repository) for a human to look at when a test failed.
    if (failed) console.error(`dashboard screenshots kept in ${dir}`);
    else if (dir) await rm(dir, { recursive: true, force: true });
  });

  afterEach(({ task }) => {
    if (task.result?.state === "fail") failed = true;
  });

  test.beforeEach(({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
  });

  /** A worker with the dashboard, and an add-options job that failed once (an injected 403) and succeeds when retried. */
  async function startWithFailedJob(): Promise<{ url: string; jobId: string }> {
    const worker = await startTestAppWorker(fixtures, {
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
      server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN, VIEWER] } },
    });
    fixtures.sims.service.faults.failNext({ method: "PATCH" }, { status: 403, times: 1 });
    const job = await fixtures.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { en_US: "Teal" } }],
    });
    await waitForJobState(fixtures.queues, PROJECT, job.jobId, "failed", 30_000);
    return { url: worker.serverUrl ?? "", jobId: job.jobId };
  }

  test("an admin logs in, finds the failed add-options job and retries it; it completes", async () => {
    const { url, jobId } = await startWithFailedJob();
    const context = await browser.newContext({ viewport: LAPTOP, httpCredentials: { username: ADMIN.name, password: ADMIN.password } });
    const page = await context.newPage();
    const violations: string[] = [];
    const errors: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      const answer = await page.goto(`${url}/admin/queue/${encodeURIComponent(queueNameOf(PROJECT))}?status=failed`);
      expect(answer?.headers()["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
      const card = page.locator(`text=#${jobId}`).first();
      await card.waitFor({ timeout: 15_000 });
      await page.waitForLoadState("load");
      // No error in the browser's console or the page's script. (bull-board scrolls inside its own
      // panes: its page is no wider than the window even at 320 px, so width is not checked here.)
      expect(errors).toEqual([]);
      // The job card's actions are icon buttons (named only by a tooltip); retry's icon is refresh-cw.
      await page.locator(RETRY_BUTTON).first().click();
      const confirm = page.getByRole("button", { name: /^(Confirm|Retry|Yes)$/ }).last();
      if (await confirm.isVisible({ timeout: 2_000 }).catch(() => false)) await confirm.click();
      await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 30_000);
      // Nothing is refused under the dashboard's Content-Security-Policy: the page's foreign web-font link is left out.
      expect(violations).toEqual([]);
    } finally {
      await page.screenshot({ path: join(dir, "admin-retry.png"), fullPage: true });
      await context.close();
    }
  });

  test("a viewer sees the failed job but no retry button", async () => {
    const { url, jobId } = await startWithFailedJob();
    const context = await browser.newContext({ viewport: LAPTOP, httpCredentials: { username: VIEWER.name, password: VIEWER.password } });
    const page = await context.newPage();
    try {
      await page.goto(`${url}/admin/queue/${encodeURIComponent(queueNameOf(PROJECT))}?status=failed`);
      await page.locator(`text=#${jobId}`).first().waitFor({ timeout: 15_000 });
      expect(await page.locator(RETRY_BUTTON).count()).toBe(0);
      expect(await page.getByRole("button", { name: /retry/i }).count()).toBe(0);
    } finally {
      await page.screenshot({ path: join(dir, "viewer.png"), fullPage: true });
      await context.close();
    }
  });
});
