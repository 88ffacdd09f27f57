import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createAuthRefusalLog } from "../../../../src/server/auth/auth-refusal-log.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { lines, logger };
}

describe("createAuthRefusalLog", () => {
  it("writes one warning per address per interval; the next one counts the refusals left out", () => {
    const { lines, logger } = capture();
    let now = 1_000_000;
    const log = createAuthRefusalLog(logger, 60_000, () => now);
    log.refused({ surface: "admin", reason: "invalid", ip: "10.0.0.1", user: "ada" });
    for (let i = 0; i < 4; i += 1) log.refused({ surface: "admin", reason: "invalid", ip: "10.0.0.1", user: "ada" });
    log.refused({ surface: "trigger", reason: "invalid", ip: "10.0.0.2" });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "authentication refused",
        surface: "admin",
        reason: "invalid",
        ip: "10.0.0.1",
        user: "ada",
        suppressed: 0,
      }),
      expect.objectContaining({ level: 40, msg: "authentication refused", surface: "trigger", ip: "10.0.0.2", suppressed: 0 }),
    ]);
    expect(lines[1]).not.toHaveProperty("user");
    now += 60_000;
    log.refused({ surface: "admin", reason: "throttled", ip: "10.0.0.1", user: "ada" });
    expect(lines[2]).toEqual(
      expect.objectContaining({ msg: "authentication refused", reason: "throttled", ip: "10.0.0.1", suppressed: 4 }),
    );
  });

  it("writes the count of an address that stopped once its interval is over and another refusal comes in", () => {
    const { lines, logger } = capture();
    let now = 0;
    const log = createAuthRefusalLog(logger, 60_000, () => now);
    log.refused({ surface: "admin", reason: "invalid", ip: "10.0.0.1", user: "ada" });
    log.refused({ surface: "admin", reason: "invalid", ip: "10.0.0.1", user: "bob" });
    log.refused({ surface: "admin", reason: "invalid", ip: "10.0.0.1", user: "cy" });
    now = 61_000;
    log.refused({ surface: "admin", reason: "invalid", ip: "10.0.0.9", user: "dee" });
    expect(lines.map((line) => [line.msg, line.ip, line.user, line.suppressed])).toEqual([
      ["authentication refused", "10.0.0.1", "ada", 0],
      ["authentication refused", "10.0.0.9", "dee", 0],
      ["authentication refusals left out of the log", "10.0.0.1", "cy", 2],
    ]);
  });

  it("cuts a long user name (the client's text)", () => {
    const { lines, logger } = capture();
    createAuthRefusalLog(logger, 60_000).refused({ surface: "admin", reason: "invalid", ip: "10.0.0.1", user: "x".repeat(500) });
    expect(lines[0]?.user).toBe(`${"x".repeat(64)}...`);
  });

  it("with an interval of 0, writes every refusal", () => {
    const { lines, logger } = capture();
    const log = createAuthRefusalLog(logger, 0, () => 5);
    for (let i = 0; i < 3; i += 1) log.refused({ surface: "metrics", reason: "invalid", ip: "10.0.0.1" });
    expect(lines).toHaveLength(3);
  });
});
