/**
 * Edges of bad input over HTTP against a real worker (real Redis, simulators): bodies nested
 * deep enough to exhaust a recursion, and label keys zod's records would drop unseen. Each is a
 * 400 naming the field or the limit, nothing queued, and one rate-limited `bad request refused`
 * warning, never an error line or a 5xx "try again".
 */
import { describe, expect } from "vitest";
import { pino } from "pino";
import { MAX_PAYLOAD_DEPTH } from "../../../../src/upstreams/activation/activation-assumptions.js";
import { createActivationQueue, type ActivationQueue } from "../../../../src/jobs/queues/activation-queue.js";
import { signBody } from "../../../../src/features/events/event-signature.js";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { MAX_BODY_DEPTH } from "../../../../src/server/http/body-depth-problem.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { SIM_ACTIVATION_CONNECTION_ID, SIM_ACTIVATION_TOKEN } from "../../../../sim/activation/activation-simulator.js";
import type { RunningSimulators } from "../../../../sim/start-simulators.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { SIM_CREDENTIALS, testConfigObject } from "../../../support/process-config.js";
import { allJobs } from "../../../support/process-jobs.js";
import { basicAuth, rawRequest, type RawAnswer } from "../../../support/raw-http.js";
import type { TestRedis } from "../../../support/redis.js";
import { test } from "../../../support/fixtures.js";

const PROJECT = 67;
const TOKEN = "bad-input-trigger-token-0123";
const EVENTS_SECRET = "bad-input-events-secret-0123456789";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin" } as const;

/** `{"a": {"a": ... 1}}`: `depth` levels of objects. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** An offer with its key, `depth` levels in all. */
function nestedOffer(depth: number): string {
  return `{"sku":"SKU-1",${'"a":{'.repeat(depth - 1)}"end":1${"}".repeat(depth)}`;
}

describe("bad input over HTTP: 400 naming the field or the limit, nothing queued, one rate-limited warning", () => {
  let sims: RunningSimulators;
  let redis: TestRedis;
  let queues: JobQueues;
  let activationQueue: ActivationQueue;
  let worker: AppWorker;
  let lines: Record<string, unknown>[];

  test.beforeEach(async ({ sims: simulators, redis: testRedis, queues: projectQueues, workers, closeAfter }) => {
    sims = simulators;
    redis = testRedis;
    queues = projectQueues;
    activationQueue = closeAfter(
      createActivationQueue({ connection: redis.redis, prefix: redis.prefix, retention: { keep_completed_days: 1, keep_failed_days: 1 } }),
    );
    lines = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const config = {
      ...testConfigObject({
        pimUrl: sims.pim.url,
        serviceUrl: sims.service.url,
        redisPrefix: redis.prefix,
        trigger: { token: TOKEN },
        projectExtras: {
          pim: { url: sims.pim.url, ...SIM_CREDENTIALS.pim, events: { secret: "${PIM_EVENTS_SECRET}" } },
          allowed_options_for_pim_attribute_addition: ["color"],
        },
      }),
      server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } },
      activation: {
        url: sims.activation.url,
        pim_connection_id: SIM_ACTIVATION_CONNECTION_ID,
        access_token: "${ACTIVATION_TOKEN}",
        requests_per_second: 50,
      },
    };
    const settings = parseSettings(JSON.stringify(config), "bad-input-config", {
      ACTIVATION_TOKEN: SIM_ACTIVATION_TOKEN,
      PIM_EVENTS_SECRET: EVENTS_SECRET,
    });
    worker = workers.keep(await startAppWorker({ settings, logger }));
  });

  function postText(path: string, text: string, headers: Record<string, string>): Promise<RawAnswer> {
    return rawRequest(worker.serverUrl ?? "", { method: "POST", path, text, headers });
  }

  function errorsOf(answer: RawAnswer): string[] {
    return (JSON.parse(answer.text) as { errors: string[] }).errors;
  }

  async function expectNothingQueued(): Promise<void> {
    expect(await allJobs(queues, PROJECT)).toEqual([]);
    expect(await activationQueue.queue.getJobCounts()).toMatchObject({ waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 });
  }

  function expectOneWarningNoError(): void {
    expect(lines.filter((line) => typeof line.level === "number" && line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.msg === "bad request refused")).toEqual([
      expect.objectContaining({ level: 40, ip: "127.0.0.1", status: 400, suppressed: 0 }),
    ]);
  }

  test("an Activation offer nested 3,000 levels deep (a stack overflow answered 503 once) is a 400 naming the limit, every time", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const deep = `{"connection":"amazon-fr","offers":[${nestedOffer(3_000)}]}`;
    for (let round = 0; round < 3; round += 1) {
      const answer = await postText("/v1/activation/offers", deep, auth);
      expect(answer.status, answer.text).toBe(400);
      expect(errorsOf(answer)).toEqual([`body nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays (at offers.0.a.a.a.a…)`]);
    }
    // Within the body's limit, beyond the offer's: the offer is named, with the offers' limit.
    const offerTooDeep = await postText("/v1/activation/offers", `{"connection":"amazon-fr","offers":[${nestedOffer(40)}]}`, auth);
    expect(offerTooDeep.status, offerTooDeep.text).toBe(400);
    expect(errorsOf(offerTooDeep)).toEqual([
      `offers.0: nests deeper than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, the most an offer or shipment may (at a.a.a.a.a.a…)`,
    ]);
    const shipmentTooDeep = await postText("/v1/activation/shipments", `{"connection":"amazon-fr","shipment":${nested(40)}}`, auth);
    expect(shipmentTooDeep.status, shipmentTooDeep.text).toBe(400);
    expect(errorsOf(shipmentTooDeep)).toEqual([expect.stringMatching(/^shipment: nests deeper than 32 levels/)]);
    // Answered as bad input: one warning for the address (the rest counted), no error line.
    expectOneWarningNoError();
    await expectNothingQueued();
  });

  test("every other route that reads a JSON body refuses one nested past the limit the same way", async () => {
    const deep = nested(3_000);
    const answers: [string, RawAnswer][] = [
      ["/v1/sync", await postText("/v1/sync", deep, { authorization: `Bearer ${TOKEN}` })],
      ["/v1/add-options", await postText("/v1/add-options", deep, { authorization: `Bearer ${TOKEN}` })],
      [
        `/admin/api/projects/${PROJECT}/sync`,
        await postText(`/admin/api/projects/${PROJECT}/sync`, deep, basicAuth(ADMIN.name, ADMIN.password)),
      ],
      [
        `/v1/pim-events/${PROJECT}`,
        await postText(`/v1/pim-events/${PROJECT}`, deep, { "x-akeneo-signature-primary": signBody(deep, EVENTS_SECRET) }),
      ],
    ];
    for (const [path, answer] of answers) {
      expect(answer.status, `${path}: ${answer.text}`).toBe(400);
      expect(errorsOf(answer), path).toEqual([`body nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays (at a.a.a.a.a.a…)`]);
    }
    expectOneWarningNoError();
    await expectNothingQueued();
  });

  test("a __proto__ label key in an add-options request (dropped unseen with a 202 once) is a 400 naming it, like any key that is not a locale", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const proto = await postText(
      "/v1/add-options",
      `{"project": ${PROJECT}, "attribute": "color", "options": [{"name": "teal", "label": {"__proto__": "x"}}]}`,
      auth,
    );
    expect(proto.status, proto.text).toBe(400);
    expect(errorsOf(proto)).toEqual(["options.0.label.__proto__: label keys must be locale codes with a region, such as en-US (or en_US)"]);
    // The same for a nested one, which zod would have taken as the object's prototype.
    const protoObject = await postText(
      "/v1/add-options",
      `{"project": ${PROJECT}, "attribute": "color", "options": [{"name": "teal", "label": {"__proto__": {"en_US": "Teal"}}}]}`,
      auth,
    );
    expect(protoObject.status, protoObject.text).toBe(400);
    expect(errorsOf(protoObject)).toEqual([
      "options.0.label.__proto__: label keys must be locale codes with a region, such as en-US (or en_US)",
    ]);
    // A locale the project does not have: also a 400 naming the key.
    const unknownLocale = await postText(
      "/v1/add-options",
      `{"project": ${PROJECT}, "attribute": "color", "options": [{"name": "teal", "label": {"xx_XX": "x"}}]}`,
      auth,
    );
    expect(unknownLocale.status, unknownLocale.text).toBe(400);
    expect(errorsOf(unknownLocale)).toEqual([
      expect.stringMatching(/^options\.0\.label\.xx-XX: 'xx-XX' is not among the project's locales/),
    ]);
    await expectNothingQueued();
  });
});
