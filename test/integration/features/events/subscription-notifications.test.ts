import { describe, expect } from "vitest";
import { signBody } from "../../../../src/features/events/event-signature.js";
import { FALLBACK_SCHEDULER_ID } from "../../../../src/infra/redis/queue-names.js";
import type { CliProcess } from "../../../support/process-cli.js";
import { SIM_CREDENTIALS } from "../../../support/process-config.js";
import { allJobs } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startWorkerCommand, type ProcessTestFixtures } from "../../../support/worker-process.js";

const PROJECT = 67;
const EVENTS_SECRET = "notifications-test-events-secret-0123";
const NOTIFICATION_SECRET = "notifications-test-subscriber-secret-0123";
const SUBSCRIPTION = "018e1ec5-29da-78ad-aae6-92065b9ca2a6";
const FALLBACK_MS = 1_000;
const METRICS_TOKEN = "metrics-token-of-the-notifications-test";
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer", token: "vic-script-token-0123456789" } as const;
const WAIT_MS = 60_000;

describe("the Event Platform's notifications through a worker process and the PIM simulator", () => {
  let fixtures: ProcessTestFixtures;
  let worker: CliProcess;
  let baseUrl = "";
  const client = createTriggerClient(() => baseUrl);
  const notificationsRoute = (project = PROJECT) => `/v1/pim-event-notifications/${project}`;

  test.beforeEach(async ({ sims, redis, tempDir, queues, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    ({ worker, url: baseUrl } = await startWorkerCommand(fixtures, {
      projectExtras: {
        pim: {
          url: sims.pim.url,
          ...SIM_CREDENTIALS.pim,
          events: {
            secret: EVENTS_SECRET,
            notification_secret: NOTIFICATION_SECRET,
            subscription_id: SUBSCRIPTION,
            fallback_interval_ms: FALLBACK_MS,
          },
        },
      },
      server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN, admin: { users: [VIEWER] } },
    }));
    fixtures.sims.pim.subscription.configure({
      url: `${baseUrl}${notificationsRoute()}`,
      secret: NOTIFICATION_SECRET,
      subscriptionId: SUBSCRIPTION,
    });
  });

  const metrics = async (): Promise<string> => (await client.call("/metrics", { token: METRICS_TOKEN })).text;
  const stateMetric = async (): Promise<Record<string, number>> => {
    const text = await metrics();
    return Object.fromEntries(
      ["active", "suspended", "revoked"].map((state) => [
        state,
        Number(
          new RegExp(`^pim_sync_pim_event_subscription_state\\{project="67",state="${state}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? "NaN",
        ),
      ]),
    );
  };
  const notificationsCounted = async (outcome: string): Promise<number> =>
    Number(
      new RegExp(`^pim_sync_pim_event_notifications_total\\{project="67",outcome="${outcome}"\\} (\\d+)$`, "m").exec(
        await metrics(),
      )?.[1] ?? "NaN",
    );
  const overviewOf67 = async () => {
    const answer = await client.call("/admin/api/overview", { token: VIEWER.token });
    expect(answer.status).toBe(200);
    const overview = answer.json as {
      projects: {
        project: number;
        events: { subscription: { state: string; reason: string | null } | null; fallback_every_ms: number | null };
        attention: string[];
      }[];
    };
    return overview.projects.find((project) => project.project === PROJECT);
  };
  const consoleRow = async (): Promise<string> => {
    const answer = await client.call("/admin/console", { token: VIEWER.token });
    expect(answer.status).toBe(200);
    return /<tr data-project="67">[\s\S]*?<\/tr>/.exec(answer.text)?.[0] ?? "";
  };
  const fallbackScheduler = () => fixtures.queues.queueFor(PROJECT).getJobScheduler(FALLBACK_SCHEDULER_ID);
  const scheduledSyncs = async () =>
    (await allJobs(fixtures.queues, PROJECT)).filter(
      (job) => job.name === "sync.run" && (job.data as { trigger?: string }).trigger === "schedule",
    );

  test("a signed suspension from the simulator moves the metric, the console and the sync interval; a resume moves them back", async () => {
    expect(await stateMetric()).toEqual({ active: 1, suspended: 0, revoked: 0 });
    expect(await fallbackScheduler()).toBeUndefined();
    expect(await consoleRow()).not.toContain("data-fallback-every-ms");

    const suspended = await fixtures.sims.pim.subscription.notify("suspend");
    expect(suspended.status).toBe(200);
    expect(await stateMetric()).toEqual({ active: 0, suspended: 1, revoked: 0 });
    expect(await notificationsCounted("applied")).toBe(1);
    await worker.waitForLog(
      (line) => line.msg?.startsWith("PIM event subscription suspended") === true && line.subscription === SUBSCRIPTION,
      WAIT_MS,
      "the suspension's log line",
    );
    const overview = await overviewOf67();
    expect(overview?.events.subscription).toEqual({
      state: "suspended",
      since: expect.any(String),
      reason: "Success rate dropped below 90%",
    });
    expect(overview?.events.fallback_every_ms).toBe(FALLBACK_MS);
    expect(overview?.attention).toContain("subscription_down");
    const row = await consoleRow();
    expect(row).toContain(`data-subscription="suspended"`);
    expect(row).toContain(`data-fallback-every-ms="${FALLBACK_MS}"`);
    // The project is now synced every second, with no cron schedule of its own: whole syncs come.
    expect(Number((await fallbackScheduler())?.every)).toBe(FALLBACK_MS);
    await waitFor(
      async () => {
        const jobs = await scheduledSyncs();
        const states = await Promise.all(jobs.map((job) => job.getState()));
        return states.filter((state) => state === "completed").length >= 2;
      },
      { timeoutMs: WAIT_MS, what: "two fallback syncs to complete" },
    );

    const resumed = await fixtures.sims.pim.subscription.notify("resume");
    expect(resumed.status).toBe(200);
    expect(await stateMetric()).toEqual({ active: 1, suspended: 0, revoked: 0 });
    expect(await fallbackScheduler()).toBeUndefined();
    // No fallback sync is left waiting for its time.
    const delayed = await fixtures.queues.queueFor(PROJECT).getDelayed();
    expect(delayed.filter((job) => job.repeatJobKey === FALLBACK_SCHEDULER_ID)).toEqual([]);
    const back = await overviewOf67();
    expect(back?.events.subscription?.state).toBe("active");
    expect(back?.events.fallback_every_ms).toBeNull();
    expect(back?.attention).not.toContain("subscription_down");
    const rowBack = await consoleRow();
    expect(rowBack).toContain(`data-subscription="active"`);
    expect(rowBack).not.toContain("data-fallback-every-ms");
  });

  test("a bad signature or an unknown subscription is refused and counted; an unknown type and an old retry change nothing", async () => {
    const body = (fields: Record<string, unknown> = {}) =>
      JSON.stringify({
        notification_type: "subscription.revoked",
        timestamp: new Date().toISOString(),
        subscription_id: SUBSCRIPTION,
        subscriber_id: "018e1ec5-29da-78ad-aae6-92065b9ca2a5",
        destination: "https://sync.example.com/v1/pim-events/67",
        events: ["com.akeneo.pim.v1.attribute-option.updated"],
        subject: fixtures.sims.pim.url,
        ...fields,
      });
    const post = (text: string, secret = NOTIFICATION_SECRET, project = PROJECT) =>
      client.call(notificationsRoute(project), {
        method: "POST",
        body: text,
        headers: { "x-akeneo-signature-primary": signBody(text, secret), "x-akeneo-signature-algorithm": "HmacSHA256" },
      });

    // Signed with the subscription's secret, not the subscriber's notification secret.
    const wrongSecret = await post(body(), EVENTS_SECRET);
    expect(wrongSecret.status).toBe(401);
    const unsigned = await client.call(notificationsRoute(), { method: "POST", body: body() });
    expect(unsigned.status).toBe(401);
    expect(await notificationsCounted("refused")).toBe(2);

    const otherSubscription = await post(body({ subscription_id: "018e1ec5-0000-7000-8000-000000000000" }));
    expect(otherSubscription.status).toBe(403);
    expect((otherSubscription.json as { error: string }).error).toContain("subscription_id");
    expect(await notificationsCounted("unknown_subscription")).toBe(1);

    const unknownType = await post(body({ notification_type: "subscription.paused" }));
    expect(unknownType.status).toBe(200);
    expect(unknownType.json).toEqual({ status: "ignored", project: PROJECT });
    await worker.waitForLog(
      (line) => line.msg === "PIM event subscription notification of an unknown type: ignored" && line.type === "subscription.paused",
      WAIT_MS,
      "the unknown type's log line",
    );
    expect(await notificationsCounted("ignored")).toBe(1);

    const noSubscription = await post(body({ subscription_id: undefined }));
    expect(noSubscription.status).toBe(400);
    expect((noSubscription.json as { errors: string[] }).errors.join()).toContain("subscription_id");
    // Nothing of it moved the state.
    expect(await stateMetric()).toEqual({ active: 1, suspended: 0, revoked: 0 });
    expect(await fallbackScheduler()).toBeUndefined();

    // A revocation, then a retried suspension built before it: the revocation stands.
    const revoked = await post(body());
    expect(revoked.json).toEqual({ status: "applied", project: PROJECT, state: "revoked", fallback_every_ms: FALLBACK_MS });
    const older = await post(
      body({ notification_type: "subscription.suspended.system", timestamp: new Date(Date.now() - 60_000).toISOString() }),
    );
    expect(older.json).toEqual({ status: "stale", project: PROJECT });
    expect(await stateMetric()).toEqual({ active: 0, suspended: 0, revoked: 1 });
  });

  test("a configured project's routes never answer 404 or a redirect, whatever they are sent", async () => {
    const paths = [notificationsRoute(), `/v1/pim-events/${PROJECT}`];
    const statuses: number[] = [];
    for (const path of paths) {
      statuses.push((await fetch(`${baseUrl}${path}`, { method: "HEAD", redirect: "manual" })).status);
      for (const sent of ["", "{}", "not json", JSON.stringify({ notification_type: "subscription.resumed" })])
        for (const signature of [undefined, "00", signBody(sent, NOTIFICATION_SECRET), signBody(sent, EVENTS_SECRET)]) {
          const answer = await fetch(`${baseUrl}${path}`, {
            method: "POST",
            redirect: "manual",
            headers: {
              "content-type": "application/json",
              ...(signature === undefined ? {} : { "x-akeneo-signature-primary": signature }),
            },
            body: sent,
          });
          await answer.arrayBuffer();
          statuses.push(answer.status);
        }
    }
    expect(statuses.filter((status) => status === 404 || (status >= 300 && status < 400))).toEqual([]);
    expect(statuses).toContain(200);
    // The route exists as such: a project that is not configured is answered 404.
    expect((await fetch(`${baseUrl}${notificationsRoute(68)}`, { method: "HEAD" })).status).toBe(404);
  });
});
