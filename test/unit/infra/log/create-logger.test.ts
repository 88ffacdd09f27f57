import { describe, expect, it } from "vitest";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { createRedactor } from "../../../../src/infra/secrets/redactor.js";

const SECRET = "svc-password-7d1e-never-log";

function capture(): { readonly lines: () => string[]; readonly logger: ReturnType<typeof createLogger> } {
  const raw: string[] = [];
  const logger = createLogger({
    level: "info",
    redactor: createRedactor({ secrets: [SECRET] }),
    destination: { write: (line: string) => void raw.push(line) },
  });
  return { lines: () => raw, logger };
}

describe("createLogger: an error logged whole (`err`)", () => {
  it("keeps its type, message and stack, with a configured secret in its message or its cause's redacted", () => {
    const { lines, logger } = capture();
    const cause = new Error(`login refused for ${SECRET}`);
    logger.error({ err: new TypeError(`could not write: ${SECRET} echoed`, { cause }) }, "could not record");
    const [line] = lines();
    expect(line).toBeDefined();
    expect(line).not.toContain(SECRET);
    const err = (JSON.parse(line ?? "{}") as { err?: { type?: string; message?: string; stack?: string } }).err;
    expect(err?.type).toBe("TypeError");
    // pino's serializer appends the cause's message (and stack) to the error's.
    expect(err?.message).toBe("could not write: [redacted] echoed: login refused for [redacted]");
    expect(err?.stack).toContain("TypeError: could not write: [redacted] echoed");
    expect(err?.stack).toContain("login refused for [redacted]");
  });
});
