/**
 * Fuzzing the real trigger endpoint (HTTP server, job queues on the test Redis): random bodies
 * (any JSON, text that is not JSON, near-valid requests with one part wrong, oversized bodies),
 * content types, authorization headers and idempotency keys. Every answer is 202 for a valid
 * request, or 400/401/413/415/422 with a named reason, the one an independent reading of the
 * rules expects; never a 5xx, a dropped connection or a hang; and a rejected request leaves no
 * job behind.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthGate } from "../../../src/server/auth/auth-gate.js";
import { parseJobData } from "../../../src/jobs/catalog/job-catalog.js";
import { createJobQueues, type JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { serverSchema, settingsSchema } from "../../../src/settings/settings-schema.js";
import { createHttpApp } from "../../../src/server/http/create-http-app.js";
import { listenHttpApp, type HttpServer } from "../../../src/server/http/listen-http-app.js";
import { triggerRoutes } from "../../../src/server/trigger/trigger-routes.js";
import { createTestRedis, type TestRedis } from "../../support/redis.js";
import { silentLogger } from "../../support/silent-logger.js";
import { CHAOS_SIZES, chaosSeed } from "../support/chaos-scale.js";
import { chaosCounters } from "../support/chaos-results.js";

const SEED = chaosSeed();
const TOKEN = "fuzz-trigger-token-0123456789";
const PROJECTS = [67, 99] as const;
const REJECTIONS = new Set([400, 401, 413, 415, 422]);
const ALLOWED: readonly string[] = ["color", "material"];

/** Header-safe text: printable ASCII (fetch refuses control characters before sending). */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });
const optionName = fc.oneof(fc.constantFrom("teal", "Teal", "x_1", "a"), fc.string({ maxLength: 12 }));
const labels = fc.oneof(
  fc.constant({ en_US: "Teal" }),
  fc.constant({ "en-US": "Teal" }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })), { maxKeys: 3 }),
);
const addOptionsBody = fc.record(
  {
    project: fc.oneof(fc.constantFrom<unknown>(67, 99, 5, "67", -1, 67.5, null), fc.jsonValue({ maxDepth: 1 })),
    attribute: fc.oneof(fc.constantFrom<unknown>("color", "material", "sku", "not_allowed", "", "co lor"), fc.jsonValue({ maxDepth: 1 })),
    options: fc.oneof(
      fc.array(fc.record({ name: optionName, label: labels }, { requiredKeys: ["name"] }), { maxLength: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    requested_by: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const syncBody = fc.record(
  {
    project: fc.oneof(fc.constantFrom<unknown>(67, 99, 5, "67", 0), fc.jsonValue({ maxDepth: 1 })),
    full: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    allow_mass_delete: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    trigger: fc.constantFrom<unknown>("api", "schedule", "nope"),
    nope: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
/** Requests that are valid but for the attribute's allowlist, the project, or nothing at all. */
const wellFormedAddOptions = fc.record(
  {
    project: fc.constantFrom(67, 99, 5),
    attribute: fc.constantFrom("color", "material", "sku", "brand"),
    options: fc.array(
      fc.record({ name: fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/), label: fc.constantFrom({}, { en_US: "Teal" }, { "en-US": "Bleu" }) }),
      { minLength: 1, maxLength: 3 },
    ),
    requested_by: fc.constantFrom("pim", "ops"),
  },
  { requiredKeys: ["project", "attribute", "options"] },
);
const wellFormedSync = fc.record(
  { project: fc.constantFrom(67, 99, 5), full: fc.boolean(), allow_mass_delete: fc.boolean() },
  { requiredKeys: ["project"] },
);
/** A well-formed body with one field replaced by any JSON value. */
const oneFieldWrong = fc
  .tuple(
    fc.oneof(wellFormedAddOptions, wellFormedSync),
    fc.constantFrom("project", "attribute", "options", "full", "requested_by", "extra"),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([valid, key, value]) => ({ ...valid, [key]: value }));
const body = fc.oneof(
  { weight: 3, arbitrary: wellFormedAddOptions.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: wellFormedSync.map((value) => JSON.stringify(value)) },
  { weight: 3, arbitrary: oneFieldWrong.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: addOptionsBody.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: syncBody.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constant(`{"project": 67, "attribute": "color", "options": [${'{"name":"x"},'.repeat(90_000)}{"name":"y"}]}`),
  },
);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<string | undefined>("application/json", "application/json; charset=utf-8", "APPLICATION/JSON") },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string | undefined>(undefined, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"),
  },
  { weight: 1, arbitrary: headerText },
);
const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | undefined>(`Bearer ${TOKEN}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      "Bearer",
      `bearer ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      `Bearer  ${TOKEN} extra`,
      `Token ${TOKEN}`,
    ),
  },
  { weight: 1, arbitrary: headerText },
);
const request = fc.record({
  path: fc.constantFrom("/v1/add-options", "/v1/sync"),
  body,
  contentType,
  authorization,
  idempotencyKey: fc.option(headerText, { nil: undefined }),
});

/**
 * What the endpoint must answer, worked out independently of it: 401 without the token, 415
 * without JSON, 413 over 1 MB, 400 for anything the job catalog or the project's allowlist
 * refuses, else accepted (202; or 422 once an Idempotency-Key was used with another body).
 */
function expectedAnswer(input: {
  path: string;
  body: string;
  contentType: string | undefined;
  authorization: string | undefined;
}): 401 | 415 | 413 | 400 | "accept" {
  const bearer = /^Bearer\s+(.+)$/i.exec(input.authorization ?? "");
  if (bearer?.[1]?.trim() !== TOKEN) return 401;
  if (!/^application\/json\b/i.test(input.contentType ?? "")) return 415;
  if (Buffer.byteLength(input.body) > 1_000_000) return 413;
  let body: unknown;
  try {
    body = JSON.parse(input.body);
  } catch {
    return 400;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return 400;
  const project = (body as Record<string, unknown>).project;
  if (typeof project !== "number" || !(PROJECTS as readonly number[]).includes(project)) return 400;
  try {
    if (input.path === "/v1/sync") parseJobData("sync.run", { ...body, trigger: "api" });
    else parseJobData("options.add", body);
  } catch {
    return 400;
  }
  if (input.path === "/v1/add-options" && !ALLOWED.includes(String((body as Record<string, unknown>).attribute))) return 400;
  return "accept";
}

describe(`chaos: fuzzing the trigger endpoint (seed ${SEED})`, () => {
  const results = chaosCounters("trigger-fuzz");
  let redis: TestRedis;
  let queues: JobQueues;
  let server: HttpServer;

  beforeAll(async () => {
    redis = await createTestRedis();
    queues = createJobQueues({
      connection: redis.redis,
      prefix: redis.prefix,
      projects: [...PROJECTS],
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    const projects = settingsSchema.parse({
      projects: PROJECTS.map((id) => ({
        id,
        pim: { url: "http://127.0.0.1:9", client_id: "c", secret: "s", username: "u", password: "p" },
        service: { url: "http://127.0.0.1:9", token: "t" },
        allowed_options_for_pim_attribute_addition: [...ALLOWED],
      })),
    }).projects;
    const app = createHttpApp({ limits: serverSchema.parse({}), logger: silentLogger() });
    // Wrong tokens are part of the input: the throttle (tested on its own) must not turn them into 429s here.
    const gate = createAuthGate({
      surface: "trigger",
      limits: { max_failures: 1_000_000, window_ms: 60_000, log_interval_ms: 60_000 },
      logger: silentLogger(),
    });
    await app.register(triggerRoutes, { token: TOKEN, gate, queues, projects, logger: silentLogger(), redisTimeoutMs: 5_000 });
    server = await listenHttpApp(app, { host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await queues?.close();
    await redis?.cleanup();
  });

  async function jobCount(): Promise<number> {
    let total = 0;
    for (const project of PROJECTS) {
      const counts = await queues
        .queueFor(project)
        .getJobCounts("waiting", "active", "completed", "failed", "delayed", "prioritized", "waiting-children");
      total += Object.values(counts).reduce((sum, count) => sum + count, 0);
    }
    return total;
  }

  it("answers every input with 202 or a named 400/401/413/415/422, never a 5xx or a hang, and queues nothing it rejects", async () => {
    const property = fc.asyncProperty(request, async (input) => {
      const headers: Record<string, string> = {};
      if (input.contentType !== undefined) headers["content-type"] = input.contentType;
      if (input.authorization !== undefined) headers.authorization = input.authorization;
      if (input.idempotencyKey !== undefined) headers["idempotency-key"] = input.idempotencyKey;
      const before = await jobCount();
      const response = await fetch(`${server.url}${input.path}`, {
        method: "POST",
        headers,
        body: input.body,
        signal: AbortSignal.timeout(5_000),
      });
      const text = await response.text();
      const after = await jobCount();
      results.add({ fuzzCases: 1 });

      const answer = `${response.status} ${text.slice(0, 300)}`;
      const expected = expectedAnswer(input);
      if (expected === "accept")
        expect([202, ...(input.idempotencyKey === undefined ? [] : [422])], `a valid request was refused: ${answer}`).toContain(
          response.status,
        );
      else expect(response.status, `expected ${expected}: ${answer}`).toBe(expected);
      if (response.status === 202) {
        expect(JSON.parse(text), answer).toMatchObject({ job_id: expect.stringMatching(/^\d+\/.+/), status: expect.any(String) });
        return;
      }
      expect(REJECTIONS.has(response.status), `unexpected status: ${answer}`).toBe(true);
      const json: unknown = JSON.parse(text);
      const reasons =
        typeof json === "object" && json !== null ? ("errors" in json ? json.errors : "error" in json ? [json.error] : []) : [];
      expect(
        Array.isArray(reasons) && reasons.length > 0 && reasons.every((reason) => typeof reason === "string" && reason.trim() !== ""),
        `no named reason: ${answer}`,
      ).toBe(true);
      expect(after, `a rejected request left a job: ${answer}`).toBe(before);
    });
    await fc.assert(property, { numRuns: CHAOS_SIZES.triggerFuzzCases, seed: SEED });
  });
});
