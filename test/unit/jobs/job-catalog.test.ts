import { describe, expect, it } from "vitest";
import { isActivationJobName, isJobName, isProjectJobName, JOB_CATALOG, JobDataError, parseJobData } from "../../../src/jobs/job-catalog.js";

describe("the job catalog", () => {
  it("knows its job names and nothing else", () => {
    expect(Object.keys(JOB_CATALOG).sort()).toEqual(["activation.offers.put", "activation.orders.pull", "activation.orders.resend", "activation.shipment.update", "options.add", "sync.events", "sync.run"]);
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
    expect(() => parseJobData("options.add", { project: 67, attribute: "color", options: [{ name: "bad-name" }] })).toThrow(/options\.0\.name/);
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
    expect(parseJobData("activation.offers.put", { connection: "a", offers: [{ sku: "x" }] })).toEqual({ connection: "a", offers: [{ sku: "x" }], force: false });
    expect(() => parseJobData("activation.offers.put", { connection: "a", offers: [] })).toThrow(/offers: must hold at least one offer/);
    expect(() => parseJobData("activation.offers.put", { connection: "a", offers: [1] })).toThrow(/offers\.0/);
    expect(() => parseJobData("activation.shipment.update", { connection: "", shipment: [] })).toThrow(/connection: .*shipment: /s);
    expect(() => parseJobData("activation.orders.pull", { connection: "a", token: "x" })).toThrow(/Unrecognized key/);
  });
});
