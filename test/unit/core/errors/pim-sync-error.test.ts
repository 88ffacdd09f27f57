import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../../../src/core/errors/error-codes.js";
import { PimSyncError } from "../../../../src/core/errors/pim-sync-error.js";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { EMPTY_REDACTOR } from "../../../../src/infra/secrets/redactor.js";
import { ConfigError } from "../../../../src/settings/config-error.js";

describe("PimSyncError", () => {
  it("carries a code, whether a retry can help, the upstream's Retry-After and the cause", () => {
    const cause = new Error("ECONNRESET");
    const error = new HttpError(
      { code: "HTTP_NETWORK", upstream: "pim", method: "GET", url: "http://pim/x", transient: true, retryAfterMs: 2_000, cause },
      "network error",
    );
    expect(error).toBeInstanceOf(PimSyncError);
    expect(error).toMatchObject({ code: "HTTP_NETWORK", retryable: true, transient: true, retryAfterMs: 2_000, name: "HttpError" });
    expect(error.cause).toBe(cause);
  });

  it("names each subclass by its own name and code", () => {
    const error = new ConfigError("f.yaml", ["x: bad"]);
    expect(error).toMatchObject({ name: "ConfigError", code: "CONFIG_INVALID", retryable: false });
  });

  it("every code has a meaning in the table", () => {
    for (const [code, meaning] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(meaning.length, code).toBeGreaterThan(10);
    }
  });

  it("a log line keeps the whole error: its type, code, stack and cause, not only the message", async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const logger = createLogger({ level: "info", redactor: EMPTY_REDACTOR, destination });
    const error = new HttpError(
      {
        code: "HTTP_TIMEOUT",
        upstream: "service",
        method: "PATCH",
        url: "http://svc/x",
        transient: true,
        cause: new Error("socket hang up"),
      },
      "no answer",
    );
    logger.warn({ err: error }, "write failed");
    logger.flush();
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    const line = JSON.parse(lines[0] ?? "{}") as { err?: { type?: string; code?: string; stack?: string; message?: string } };
    expect(line.err).toMatchObject({ type: "HttpError", code: "HTTP_TIMEOUT" });
    expect(line.err?.stack).toContain("HttpError");
    expect(JSON.stringify(line.err)).toContain("socket hang up");
  });
});
