import { Client } from "undici";
import { afterEach, describe, expect } from "vitest";
import { triggerUrlOf, type AppWorker } from "../../../support/app-worker.js";
import { SIM_SECRETS } from "../../../support/process-config.js";
import { allJobs, waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient, type TriggerAnswer } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";

const PROJECT = 67;
const TOKEN = "trigger-token-0123456789abcdef";
const VALID = { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { "en-US": "Teal", fr_FR: "Sarcelle" } }] };

describe("trigger endpoint (in-process worker)", () => {
  let fixtures: InProcessTestFixtures;
  let worker: AppWorker | undefined;
  const client = createTriggerClient(() => triggerUrlOf(worker));

  test.beforeEach(async ({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
    worker = await startTestAppWorker(fixtures, {
      trigger: { port: 0, token: TOKEN },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color", "material"] },
    });
  });

  afterEach(() => {
    // No answer, whatever it was, repeats a secret of the config.
    for (const answer of client.answers.splice(0)) {
      for (const secret of [TOKEN, ...SIM_SECRETS]) expect(answer.text).not.toContain(secret);
      for (const [, value] of answer.headers) for (const secret of [TOKEN, ...SIM_SECRETS]) expect(value).not.toContain(secret);
    }
  });
  function errorsOf(answer: TriggerAnswer): string[] {
    const body = answer.json as { errors?: unknown };
    expect(Array.isArray(body.errors), `errors in ${answer.text}`).toBe(true);
    return body.errors as string[];
  }

  test("GET /health answers 200 without a token", async () => {
    const answer = await client.call("/health");
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: "ok" });
  });

  test("POST /v1/add-options answers 202 with a job id, and the job adds the option to the service and the PIM", async () => {
    const answer = await client.call("/v1/add-options", { token: TOKEN, body: VALID });

    expect(answer.status).toBe(202);
    const body = answer.json as { job_id: string; status: string };
    expect(body.status).toBe("queued");
    expect(body.job_id).toMatch(/^67\/\S+$/);
    const jobId = body.job_id.slice("67/".length);
    const job = await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 20_000);
    expect(job.name).toBe("options.add");
    expect(job.data).toEqual({
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { "en-US": "Teal", "fr-FR": "Sarcelle" } }],
    });
    expect(job.returnvalue).toMatchObject({ collections: [{ collection: "color", added: ["teal"], skipped: [] }], missing: [] });
    const color = fixtures.sims.service.collections().find((c) => c.project === PROJECT && c.name === "color");
    expect(color?.options).toContainEqual({ name: "teal", label: { "en-US": "Teal", "fr-FR": "Sarcelle" } });
    expect(fixtures.sims.pim.state.attribute_options.color?.some((o) => o.code === "teal")).toBe(true);
  });

  test("answers 401 without a token, with a wrong token or another scheme, and queues nothing", async () => {
    const none = await client.call("/v1/add-options", { body: VALID });
    const wrong = await client.call("/v1/add-options", { token: `${TOKEN}x`, body: VALID });
    const basic = await client.call("/v1/add-options", {
      headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
      body: VALID,
    });
    const syncWithout = await client.call("/v1/sync", { body: { project: PROJECT } });

    for (const answer of [none, wrong, basic, syncWithout]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    }
    expect(await allJobs(fixtures.queues)).toEqual([]);
  });

  test.each([
    {
      what: "an option name outside the PIM code rule",
      body: { ...VALID, options: [{ name: "te al" }] },
      field: /^options\.0\.name: .*letters, digits and underscores/,
    },
    {
      what: "a label key that is not a locale",
      body: { ...VALID, options: [{ name: "teal", label: { english: "Teal" } }] },
      field: /^options\.0\.label\.english: label keys must be locale codes/,
    },
    {
      what: "a label key without a region",
      body: { ...VALID, options: [{ name: "teal", label: { en: "Teal" } }] },
      field: /^options\.0\.label\.en: label keys must be locale codes with a region/,
    },
    { what: "an empty option list", body: { ...VALID, options: [] }, field: /^options: at least one option/ },
    {
      what: "two options differing only in case",
      body: { ...VALID, options: [{ name: "Teal" }, { name: "teal" }] },
      field: /^options\.1\.name: 'teal' repeats options\[0\]/,
    },
    { what: "an unknown key", body: { ...VALID, colour: "red" }, field: /colour/ },
    { what: "an unknown project", body: { ...VALID, project: 5 }, field: /^project: 5 is not a configured project/ },
    { what: "a project given as a string", body: { ...VALID, project: "67" }, field: /^project: / },
    {
      what: "a project without the attribute in its allowlist",
      body: { ...VALID, attribute: "size_eu" },
      field: /^attribute: 'size_eu' is not in allowed_options_for_pim_attribute_addition/,
    },
  ])("answers 400 naming the field for $what, and queues nothing", async ({ body, field }) => {
    const answer = await client.call("/v1/add-options", { token: TOKEN, body });

    expect(answer.status).toBe(400);
    expect(
      errorsOf(answer).some((reason) => field.test(reason)),
      answer.text,
    ).toBe(true);
    expect(await allJobs(fixtures.queues)).toEqual([]);
  });

  test("a 400 says every reason: a non-allowlisted attribute and invalid options together", async () => {
    const answer = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { project: PROJECT, attribute: "size_eu", options: [{ name: "te al" }] },
    });

    expect(answer.status).toBe(400);
    const errors = errorsOf(answer);
    expect(errors.some((reason) => reason.startsWith("attribute: "))).toBe(true);
    expect(
      errors.some((reason) => reason.startsWith("options.0.name: ")),
      answer.text,
    ).toBe(true);
  });

  test("refuses a label locale the project lacks with a 400 naming it; nothing is queued or written", async () => {
    const answer = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { ...VALID, options: [{ name: "teal", label: { "en-US": "Teal", "es-ES": "Verde azulado" } }] },
    });

    expect(answer.status).toBe(400);
    expect(errorsOf(answer)).toEqual([
      expect.stringMatching(/^options\.0\.label\.es-ES: 'es-ES' is not among the project's locales \(.*en-US.*\)$/),
    ]);
    expect(await allJobs(fixtures.queues)).toEqual([]);
    expect(fixtures.sims.service.requests.filter((r) => r.method === "PATCH")).toEqual([]);
  });

  test("a project id of the wrong type is named as such, not as an unknown project", async () => {
    const answer = await client.call("/v1/add-options", { token: TOKEN, body: { ...VALID, project: String(PROJECT) } });

    expect(answer.status).toBe(400);
    expect(errorsOf(answer)).toEqual([`project: must be a number (a configured project id), got string "${PROJECT}"`]);
  });

  test("two concurrent deliveries with one Idempotency-Key make one job under one job id", async () => {
    const headers = { "idempotency-key": "delivery-concurrent" };
    const [first, second] = await Promise.all([
      client.call("/v1/add-options", { token: TOKEN, body: VALID, headers }),
      client.call("/v1/add-options", { token: TOKEN, body: VALID, headers }),
    ]);

    expect([first?.status, second?.status]).toEqual([202, 202]);
    const ids = [first, second].map((answer) => (answer?.json as { job_id: string }).job_id);
    expect(ids[0]).toBe(ids[1]);
    expect((await allJobs(fixtures.queues)).filter((job) => job.name === "options.add")).toHaveLength(1);
    await waitForJobState(fixtures.queues, PROJECT, (ids[0] ?? "").slice(3), "completed", 20_000);
    expect(fixtures.sims.service.requests.filter((r) => r.method === "PATCH" && /\/add-options\/$/.test(r.path))).toHaveLength(1);
  });

  test("answers 400 for a body that is not JSON or not an object, 415 for another content type, 413 for an oversize body", async () => {
    const notJson = await client.call("/v1/add-options", { token: TOKEN, body: "{not json" });
    expect(notJson.status).toBe(400);
    expect(errorsOf(notJson)).toEqual(["body is not valid JSON"]);

    const array = await client.call("/v1/add-options", { token: TOKEN, body: [VALID] });
    expect(array.status).toBe(400);
    expect(errorsOf(array)).toEqual(["body must be a JSON object"]);

    const text = await client.call("/v1/add-options", { token: TOKEN, body: JSON.stringify(VALID), contentType: "text/plain" });
    expect(text.status).toBe(415);
    expect(errorsOf(text)[0]).toMatch(/Content-Type must be application\/json/);
    const noType = await client.call("/v1/add-options", { token: TOKEN, method: "POST" });
    expect(noType.status).toBe(415);

    const oversize = await client.call("/v1/add-options", { token: TOKEN, body: { ...VALID, requested_by: "x".repeat(1_100_000) } });
    expect(oversize.status).toBe(413);
    expect(errorsOf(oversize)[0]).toMatch(/larger than 1000000 bytes/);

    expect(await allJobs(fixtures.queues)).toEqual([]);
  });

  test("closes the connection after answering before the body was read, so the next request on a keep-alive client is answered", async () => {
    const url = triggerUrlOf(worker);
    const connection = new Client(url, { pipelining: 1 });
    try {
      const post = (body: string) =>
        connection.request({
          method: "POST",
          path: "/v1/add-options",
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          body,
          // A hang fails the test instead of stalling it.
          signal: AbortSignal.timeout(5_000),
        });
      const oversize = await post(JSON.stringify({ ...VALID, requested_by: "x".repeat(1_100_000) }));
      expect(oversize.statusCode).toBe(413);
      expect(oversize.headers.connection).toBe("close");
      await oversize.body.dump();

      const next = await post(JSON.stringify(VALID));
      expect(next.statusCode).toBe(202);
      await next.body.dump();
    } finally {
      await connection.destroy();
    }
  });

  test("a 401 given before a large body was read closes the connection too, and the next request is answered", async () => {
    const url = triggerUrlOf(worker);
    const connection = new Client(url, { pipelining: 1 });
    try {
      const post = (token: string, body: string) =>
        connection.request({
          method: "POST",
          path: "/v1/add-options",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(5_000),
        });
      const refused = await post("a-wrong-token-0123456789", JSON.stringify({ ...VALID, requested_by: "x".repeat(500_000) }));
      expect(refused.statusCode).toBe(401);
      expect(refused.headers.connection).toBe("close");
      await refused.body.dump();

      const next = await post(TOKEN, JSON.stringify(VALID));
      expect(next.statusCode).toBe(202);
      await next.body.dump();
    } finally {
      await connection.destroy();
    }
  });

  test("Idempotency-Key: two deliveries make one job, the second answered as a duplicate with the same job id", async () => {
    const headers = { "idempotency-key": "delivery-42" };
    const first = await client.call("/v1/add-options", { token: TOKEN, body: VALID, headers });
    const second = await client.call("/v1/add-options", { token: TOKEN, body: VALID, headers });
    const other = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { ...VALID, options: [{ name: "mint" }] },
      headers: { "idempotency-key": "delivery-43" },
    });

    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    const firstBody = first.json as { job_id: string; status: string };
    expect(firstBody.status).toBe("queued");
    expect(second.json).toEqual({ job_id: firstBody.job_id, status: "duplicate" });
    expect((other.json as { job_id: string }).job_id).not.toBe(firstBody.job_id);
    const jobs = await allJobs(fixtures.queues);
    expect(
      jobs
        .filter((job) => job.name === "options.add")
        .map((job) => `67/${job.id ?? ""}`)
        .sort(),
    ).toEqual([firstBody.job_id, (other.json as { job_id: string }).job_id].sort());

    // Once both jobs ended (one at a time: mint's may still wait when teal's is done), a late
    // third delivery is still the same job: the option is added once.
    await waitForJobState(fixtures.queues, PROJECT, firstBody.job_id.slice(3), "completed", 20_000);
    await waitForJobState(fixtures.queues, PROJECT, (other.json as { job_id: string }).job_id.slice(3), "completed", 20_000);
    const third = await client.call("/v1/add-options", { token: TOKEN, body: VALID, headers });
    expect(third.json).toEqual({ job_id: firstBody.job_id, status: "duplicate" });
    // Teal once and mint once, in one add-options call or two: mint's job is merged into teal's
    // when it is already waiting as teal's runs (decision 0006).
    const added = Object.values(fixtures.sims.service.writes())
      .flat()
      .filter((w) => w.kind === "add-options")
      .flatMap((w) => (w.body as { upsert_options: { name: string }[] }).upsert_options.map((o) => o.name));
    expect(added.sort()).toEqual(["mint", "teal"]);
  });

  test("Idempotency-Key reused with another body: 422 naming the header, nothing queued, the first job untouched", async () => {
    const headers = { "idempotency-key": "delivery-44" };
    const first = await client.call("/v1/add-options", { token: TOKEN, body: VALID, headers });
    const firstId = (first.json as { job_id: string }).job_id;
    const otherOptions = await client.call("/v1/add-options", { token: TOKEN, body: { ...VALID, options: [{ name: "mint" }] }, headers });
    const otherAttribute = await client.call("/v1/add-options", { token: TOKEN, body: { ...VALID, attribute: "material" }, headers });

    for (const answer of [otherOptions, otherAttribute]) {
      expect(answer.status).toBe(422);
      expect(errorsOf(answer)).toEqual([
        `Idempotency-Key: already used for another request body (job ${firstId}); use a new key for a new request`,
      ]);
    }
    const jobs = (await allJobs(fixtures.queues)).filter((job) => job.name === "options.add");
    expect(jobs.map((job) => `67/${job.id ?? ""}`)).toEqual([firstId]);
    expect(jobs[0]?.data).toEqual({
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { "en-US": "Teal", "fr-FR": "Sarcelle" } }],
    });
  });

  test("Idempotency-Key: a redelivery after the job was removed is a duplicate naming it, and nothing runs again", async () => {
    const headers = { "idempotency-key": "delivery-45" };
    const first = await client.call("/v1/add-options", { token: TOKEN, body: VALID, headers });
    const firstId = (first.json as { job_id: string }).job_id;
    const job = await waitForJobState(fixtures.queues, PROJECT, firstId.slice(3), "completed", 20_000);
    // What the retention does to every finished job sooner or later (removeOnComplete count/age).
    await job.remove();
    expect(await allJobs(fixtures.queues)).toEqual([]);

    // The same request, its keys in another order and its label locale written en_US / fr-FR.
    const redelivered = { options: [{ label: { fr_FR: "Sarcelle", en_US: "Teal" }, name: "teal" }], attribute: "color", project: PROJECT };
    const again = await client.call("/v1/add-options", { token: TOKEN, body: redelivered, headers });

    expect(again.status).toBe(202);
    expect(again.json).toEqual({ job_id: firstId, status: "duplicate" });
    expect(await allJobs(fixtures.queues)).toEqual([]);
    expect(fixtures.sims.service.requests.filter((r) => r.method === "PATCH" && /\/add-options\/$/.test(r.path))).toHaveLength(1);
  });

  test("POST /v1/sync answers 202 with a job id, and the sync runs", async () => {
    const answer = await client.call("/v1/sync", { token: TOKEN, body: { project: PROJECT } });

    expect(answer.status).toBe(202);
    const body = answer.json as { job_id: string; status: string };
    expect(body.status).toBe("queued");
    const job = await waitForJobState(fixtures.queues, PROJECT, body.job_id.slice(3), "completed", 20_000);
    expect(job.name).toBe("sync.run");
    expect(job.data).toMatchObject({ project: PROJECT, trigger: "api", full: false });
    expect(job.returnvalue).toMatchObject({ outcome: "done", written: 13 });

    const unknown = await client.call("/v1/sync", { token: TOKEN, body: { project: 5 } });
    expect(unknown.status).toBe(400);
    expect(errorsOf(unknown)[0]).toMatch(/^project: 5 is not a configured project/);
    const badFlag = await client.call("/v1/sync", { token: TOKEN, body: { project: PROJECT, full: "yes" } });
    expect(badFlag.status).toBe(400);
    expect(errorsOf(badFlag).some((reason) => reason.startsWith("full: "))).toBe(true);
  });

  test("answers 404 for an unknown path and 405 (Allow: POST) for GET on the job routes", async () => {
    const unknown = await client.call("/v1/nothing-here", { token: TOKEN });
    expect(unknown.status).toBe(404);
    const root = await client.call("/", { token: TOKEN });
    expect(root.status).toBe(404);

    for (const path of ["/v1/add-options", "/v1/sync"]) {
      const get = await client.call(path, { token: TOKEN });
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
    }
    const put = await client.call("/v1/add-options", { token: TOKEN, method: "PUT", body: VALID });
    expect(put.status).toBe(405);
    expect(await allJobs(fixtures.queues)).toEqual([]);
  });
});
