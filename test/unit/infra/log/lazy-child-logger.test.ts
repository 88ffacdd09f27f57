import { describe, expect, it } from "vitest";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { LazyChildLogger } from "../../../../src/infra/log/lazy-child-logger.js";
import { EMPTY_REDACTOR } from "../../../../src/infra/secrets/redactor.js";

const BINDINGS = { job: "12", jobName: "sync.run", project: 67, queue: "pim-sync.project-67", attempt: 2 } as const;

function capture(level: string): { readonly lines: () => Record<string, unknown>[]; readonly logger: ReturnType<typeof createLogger> } {
  const raw: string[] = [];
  const logger = createLogger({ level, redactor: EMPTY_REDACTOR, destination: { write: (line: string) => void raw.push(line) } });
  return { lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>), logger };
}

describe("LazyChildLogger: a job's logger, made on first use", () => {
  it("writes the processor's lines with the job's bindings and fields, secrets redacted", () => {
    const { lines, logger } = capture("info");
    const jobLog = new LazyChildLogger(logger, BINDINGS);
    jobLog.write("info", "job started");
    jobLog.write("warn", "job failed", { verdict: "retry", headers: { authorization: "Bearer abc-secret" } });
    expect(lines()).toEqual([
      expect.objectContaining({ ...BINDINGS, msg: "job started", level: 30 }),
      expect.objectContaining({ ...BINDINGS, msg: "job failed", level: 40, verdict: "retry", headers: { authorization: "[redacted]" } }),
    ]);
  });

  it("leaves out lines below the parent's level, and still logs those above it", () => {
    const { lines, logger } = capture("warn");
    const jobLog = new LazyChildLogger(logger, BINDINGS);
    jobLog.write("info", "job started");
    jobLog.write("debug", "details");
    expect(lines()).toEqual([]);
    jobLog.write("error", "job broke");
    expect(lines()).toEqual([expect.objectContaining({ ...BINDINGS, msg: "job broke" })]);
  });

  it("hands handlers one child with the bindings: every line they log carries them, secrets redacted", () => {
    const { lines, logger } = capture("info");
    const jobLog = new LazyChildLogger(logger, BINDINGS);
    expect(jobLog.logger).toBe(jobLog.logger);
    jobLog.logger.info({ token: "t0ps3cret", nested: { password: "hunter2-secret" } }, "handler line");
    jobLog.logger.child({ component: "pim-client" }).warn("deeper line");
    const [first, second] = lines();
    expect(first).toMatchObject({ ...BINDINGS, msg: "handler line", token: "[redacted]", nested: { password: "[redacted]" } });
    expect(second).toMatchObject({ ...BINDINGS, component: "pim-client", msg: "deeper line" });
    expect(JSON.stringify(lines())).not.toMatch(/t0ps3cret|hunter2-secret/);
  });

  it("follows the child's own level once it was made", () => {
    const { lines, logger } = capture("info");
    const jobLog = new LazyChildLogger(logger, BINDINGS);
    jobLog.logger.level = "error";
    jobLog.write("warn", "quiet now");
    expect(lines()).toEqual([]);
  });
});
