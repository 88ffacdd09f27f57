import { describe, expect, it } from "vitest";
import { jobCatalogOf } from "../../../../src/jobs/catalog/job-catalog-of.js";
import {
  DEFAULT_JOB_CATALOG,
  isActivationJobName,
  isJobName,
  isProjectJobName,
  JOB_CATALOG,
  JOB_DEFINITIONS,
  JobDataError,
  parseJobData,
} from "../../../../src/jobs/catalog/job-catalog.js";
import { UnknownJobName } from "../../../../src/jobs/catalog/unknown-job-name.js";

describe("the job catalog", () => {
  it("knows its job names and nothing else", () => {
    expect(Object.keys(JOB_CATALOG).sort()).toEqual([
      "activation.offers.put",
      "activation.orders.pull",
      "activation.orders.resend",
      "activation.shipment.update",
      "options.add",
      "sync.events",
      "sync.run",
    ]);
    expect(isJobName("sync.run")).toBe(true);
    expect(isJobName("toString")).toBe(false);
    expect(isJobName("sync.all")).toBe(false);
  });

  it("fills sync defaults", () => {
    expect(parseJobData("sync.run", { project: 67 })).toEqual({ project: 67, full: false, allow_mass_delete: false, trigger: "cli" });
  });

  it("rejects bad data with every problem and its path", () => {
    const attempt = (): unknown => parseJobData("sync.run", { project: -1, full: "yes", token: "x" });
    expect(attempt).toThrow(JobDataError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as JobDataError).problems.join("\n");
      expect(problems).toMatch(/project: /);
      expect(problems).toMatch(/full: /);
      expect(problems).toMatch(/Unrecognized key/);
    }
  });

  it("validates add-options data with the request schema", () => {
    expect(() => parseJobData("options.add", { project: 67, attribute: "color", options: [{ name: "bad-name" }] })).toThrow(
      /options\.0\.name/,
    );
  });

  it("bounds every job's attempts and uses jittered exponential backoff", () => {
    for (const entry of Object.values(JOB_CATALOG)) {
      expect(entry.attempts).toBeGreaterThan(1);
      expect(entry.attempts).toBeLessThanOrEqual(10);
      expect(entry.backoff.type).toBe("exponential");
      expect(entry.backoff.jitter).toBeGreaterThan(0);
    }
  });

  it("tells project jobs from Activation jobs", () => {
    expect(isProjectJobName("sync.run") && isProjectJobName("options.add")).toBe(true);
    expect(isProjectJobName("activation.orders.pull")).toBe(false);
    expect(["activation.orders.pull", "activation.offers.put", "activation.shipment.update"].every(isActivationJobName)).toBe(true);
    expect(isActivationJobName("sync.run") || isActivationJobName("activation.other")).toBe(false);
  });

  it("validates Activation job data: a connection, offer and shipment objects, no unknown keys", () => {
    expect(parseJobData("activation.orders.pull", { connection: "amazon-fr" })).toEqual({ connection: "amazon-fr", trigger: "cli" });
    expect(parseJobData("activation.offers.put", { connection: "a", offers: [{ sku: "x" }] })).toEqual({
      connection: "a",
      offers: [{ sku: "x" }],
      force: false,
    });
    expect(() => parseJobData("activation.offers.put", { connection: "a", offers: [] })).toThrow(/offers: must hold at least one offer/);
    expect(() => parseJobData("activation.offers.put", { connection: "a", offers: [1] })).toThrow(/offers\.0/);
    expect(() => parseJobData("activation.shipment.update", { connection: "", shipment: [] })).toThrow(/connection: .*shipment: /s);
    expect(() => parseJobData("activation.orders.pull", { connection: "a", token: "x" })).toThrow(/Unrecognized key/);
  });

  it("derives each job's queue from its entry, and finds entries by the names Redis holds", () => {
    expect(JOB_DEFINITIONS.filter((entry) => entry.queue === "project").map((entry) => entry.name)).toEqual([
      "sync.run",
      "sync.events",
      "options.add",
    ]);
    expect(DEFAULT_JOB_CATALOG.entry("options.add", "project")).toBe(JOB_CATALOG["options.add"]);
    expect(DEFAULT_JOB_CATALOG.entry("activation.orders.pull")).toBe(JOB_CATALOG["activation.orders.pull"]);
  });

  it("an unknown name, or one of another queue, fails clearly with its code; a name listed twice is refused", () => {
    expect(() => DEFAULT_JOB_CATALOG.entry("sync.all")).toThrow(UnknownJobName);
    expect(() => DEFAULT_JOB_CATALOG.entry("sync.all")).toThrow("unknown job name 'sync.all'");
    expect(() => DEFAULT_JOB_CATALOG.entry("sync.run", "activation")).toThrow(
      expect.objectContaining({
        code: "JOB_NAME_UNKNOWN",
        retryable: false,
        message: "unknown job name 'sync.run' on the activation queue",
      }),
    );
    expect(() => jobCatalogOf([...JOB_DEFINITIONS, JOB_CATALOG["sync.run"]])).toThrow(/lists 'sync.run' twice/);
  });

  it("every entry has a time limit, a listing line and a handler", () => {
    for (const entry of JOB_DEFINITIONS) {
      expect(entry.timeoutMs({ worker: { sync_timeout_ms: 1, add_options_timeout_ms: 2 } } as never), entry.name).toBeGreaterThan(0);
      expect(entry.summary({ project: 67, connection: "c" }), entry.name).not.toBe("");
      expect(typeof entry.handler, entry.name).toBe("function");
    }
  });
});
