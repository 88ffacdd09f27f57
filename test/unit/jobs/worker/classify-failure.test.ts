import { describe, expect, it } from "vitest";
import { AddOptionsRejected } from "../../../../src/features/add-options/add-options-rejected.js";
import { ActivationProtocolError } from "../../../../src/upstreams/activation/activation-errors.js";
import { ActivationNotConfigured } from "../../../../src/features/activation/activation-runtime.js";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { classifyFailure } from "../../../../src/jobs/worker/classify-failure.js";
import { PimSyncError } from "../../../../src/core/errors/pim-sync-error.js";
import { JobDataError } from "../../../../src/jobs/catalog/job-catalog.js";
import { SyncIncomplete } from "../../../../src/jobs/handlers/sync-incomplete.js";
import { ConfigError } from "../../../../src/settings/config-error.js";
import { ProjectScopeError } from "../../../../src/features/sync/sync-project.js";

function httpError(status: number | undefined, transient: boolean, retryAfterMs?: number): HttpError {
  return new HttpError(
    { code: status ? "HTTP_STATUS" : "HTTP_TIMEOUT", upstream: "pim", method: "GET", url: "http://pim/x", status, transient, retryAfterMs },
    "boom",
  );
}

describe("classifyFailure", () => {
  it.each([
    ["bad job data", new JobDataError("sync.run", ["project: bad"])],
    ["a rejected add-options request", new AddOptionsRejected(["not allowlisted"])],
    ["a config error", new ConfigError("f.yaml", ["x: bad"])],
    ["filters that do not match the PIM", new ProjectScopeError(["unknown channel"])],
    ["an Activation cursor that repeats", new ActivationProtocolError("cursor again")],
    ["a worker without the activation section", new ActivationNotConfigured()],
    ["a 404", httpError(404, false)],
    ["a 400", httpError(400, false)],
    [
      "a response of the wrong shape",
      new HttpError({ code: "HTTP_RESPONSE_SHAPE", upstream: "pim", method: "GET", url: "u", transient: false }, "shape"),
    ],
  ])("fails %s at once", (_, error) => {
    expect(classifyFailure(error).kind).toBe("permanent");
  });

  it("fails at once a sync whose every failure would recur (a derivation problem, a collection listed twice)", () => {
    const problems = [
      "collection name 'color' from attribute 'COLOR' clashes with one from attribute 'color'",
      "collection 'size' exists more than once in project 67; left untouched",
    ];
    const verdict = classifyFailure(new SyncIncomplete(problems, null, problems));
    expect(verdict).toMatchObject({ kind: "permanent" });
    expect(verdict.reason).toContain("clashes with one from attribute 'color'");
  });

  it("retries a sync with a permanent failure and a transient one: the retry can still finish the rest", () => {
    const failures = ["collection 'size' exists more than once", "reading attribute-options:color failed: 503"];
    expect(classifyFailure(new SyncIncomplete(failures, null, [failures[0] ?? ""])).kind).toBe("retry");
    expect(classifyFailure(new SyncIncomplete(failures, 90_000, [failures[0] ?? ""]))).toMatchObject({ kind: "delay", delayMs: 90_000 });
    expect(classifyFailure(new SyncIncomplete(failures, null)).kind).toBe("retry");
  });

  it("delays a transient failure that says when to come back, without using an attempt", () => {
    expect(classifyFailure(httpError(429, true, 90_000))).toMatchObject({ kind: "delay", delayMs: 90_000 });
  });

  it.each([
    ["a 503", httpError(503, true)],
    ["a 429 without Retry-After", httpError(429, true)],
    ["a timeout", httpError(undefined, true)],
    ["any other error", new Error("socket hang up")],
    ["a thrown string", "weird"],
  ])("retries %s with backoff", (_, error) => {
    expect(classifyFailure(error).kind).toBe("retry");
  });

  it("keeps the reason", () => {
    expect(classifyFailure(new AddOptionsRejected(["attribute 'x' is not allowlisted"])).reason).toMatch(
      /attribute 'x' is not allowlisted/,
    );
  });
});

describe("classifyFailure reads the error's fields, not its class", () => {
  class SomeNewFailure extends PimSyncError {
    constructor(retryable: boolean, retryAfterMs?: number) {
      super("a failure the classifier has never heard of", { code: "HTTP_STATUS", retryable, retryAfterMs });
    }
  }

  it("fails a new kind of error at once when it says a retry cannot help, with no change to the classifier", () => {
    expect(classifyFailure(new SomeNewFailure(false)).kind).toBe("permanent");
  });

  it("retries it, or delays it by the upstream's Retry-After, when it says a retry can help", () => {
    expect(classifyFailure(new SomeNewFailure(true)).kind).toBe("retry");
    expect(classifyFailure(new SomeNewFailure(true, 5_000))).toMatchObject({ kind: "delay", delayMs: 5_000 });
  });
});
