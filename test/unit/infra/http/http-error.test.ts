import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  describeIssues,
  HttpError,
  isPermanentNetworkFailure,
  isTransientStatus,
  TRANSIENT_STATUSES,
} from "../../../../src/infra/http/http-error.js";

describe("isTransientStatus", () => {
  it.each([408, 425, 429, 500, 502, 503, 504])("%i is transient", (status) => {
    expect(isTransientStatus(status)).toBe(true);
  });

  it.each([200, 201, 204, 301, 304, 400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 501, 505, 511])("%i is not transient", (status) => {
    expect(isTransientStatus(status)).toBe(false);
  });

  it("agrees with TRANSIENT_STATUSES for every status code", () => {
    for (let status = 100; status < 600; status += 1) {
      expect(isTransientStatus(status)).toBe(TRANSIENT_STATUSES.has(status));
    }
    expect([...TRANSIENT_STATUSES].sort((a, b) => a - b)).toEqual([408, 425, 429, 500, 502, 503, 504]);
  });
});

describe("HttpError", () => {
  it('reads like a log line: [upstream METHOD] "url": what', () => {
    const error = new HttpError(
      { code: "HTTP_STATUS", upstream: "pim", method: "GET", url: "http://host/api/rest/v1/attributes", status: 503, transient: true },
      "503 Service Unavailable",
    );
    expect(error.message).toBe('[pim GET] "http://host/api/rest/v1/attributes": 503 Service Unavailable');
    expect(error.name).toBe("HttpError");
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(HttpError);
  });

  it("keeps every detail as a property", () => {
    const cause = new Error("root");
    const details = {
      code: "HTTP_STATUS",
      upstream: "service",
      method: "PATCH",
      url: "http://svc/x",
      status: 429,
      bodyExcerpt: "slow down",
      retryAfterMs: 1500,
      transient: true,
    } as const;
    const error = new HttpError({ ...details, cause }, "429 slow down");
    expect(error).toMatchObject(details);
    expect(error.cause).toBe(cause);
  });

  it("leaves optional details undefined", () => {
    const error = new HttpError({ code: "HTTP_TIMEOUT", upstream: "pim", method: "GET", url: "http://h/", transient: true }, "no answer");
    expect(error.status).toBeUndefined();
    expect(error.bodyExcerpt).toBeUndefined();
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.cause).toBeUndefined();
    expect(error.code).toBe("HTTP_TIMEOUT");
  });
});

describe("describeIssues", () => {
  const schema = z.object({
    a: z.string(),
    b: z.number(),
    items: z.array(z.object({ name: z.string() })),
  });

  function issuesOf(value: unknown): z.core.$ZodIssue[] {
    const result = schema.safeParse(value);
    if (result.success) throw new Error("expected a failure");
    return result.error.issues;
  }

  it("names the dotted path of each issue with its message", () => {
    const text = describeIssues(issuesOf({ a: 1, b: 2, items: [{ name: "ok" }, { name: 3 }] }));
    const parts = text.split("; ");
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^a: /);
    expect(parts[1]).toMatch(/^items\.1\.name: /);
    expect(parts[0]).toContain("expected string");
  });

  it("writes (root) for an issue at the root", () => {
    const text = describeIssues(issuesOf("not an object"));
    expect(text).toMatch(/^\(root\): /);
    expect(text).not.toContain(";");
  });

  it("shows at most five issues and counts the rest", () => {
    const many = z.object(Object.fromEntries("abcdefg".split("").map((key) => [key, z.string()])));
    const result = many.safeParse({});
    expect(result.success).toBe(false);
    if (result.success) return;
    const text = describeIssues(result.error.issues);
    expect(text.split("; ")).toHaveLength(5);
    expect(text).toMatch(/^a: .*; e: [^;]* \(\+2 more\)$/);
    expect(text).not.toContain("f: ");
  });

  it("takes a custom maximum", () => {
    const text = describeIssues(issuesOf({ a: 1, b: "x", items: "no" }), 1);
    expect(text.split("; ")).toHaveLength(1);
    expect(text).toMatch(/^a: .* \(\+2 more\)$/);
  });

  it("adds no count when the issues fit exactly", () => {
    const issues = issuesOf({ a: 1, b: "x", items: "no" });
    expect(issues).toHaveLength(3);
    expect(describeIssues(issues, 3)).not.toContain("more");
  });

  it("describes no issue as an empty string", () => {
    expect(describeIssues([])).toBe("");
  });
});

describe("isPermanentNetworkFailure", () => {
  const withCode = (code: string): Error => Object.assign(new Error(`getaddrinfo ${code} pim.example`), { code });

  it("a host name that does not resolve is permanent, also when wrapped", () => {
    expect(isPermanentNetworkFailure(withCode("ENOTFOUND"))).toBe(true);
    expect(isPermanentNetworkFailure(new Error("fetch failed", { cause: withCode("ENOTFOUND") }))).toBe(true);
  });

  it("refused connections, resets and a DNS server that is away stay transient", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "EAI_AGAIN", "ETIMEDOUT"])
      expect(isPermanentNetworkFailure(withCode(code))).toBe(false);
    expect(isPermanentNetworkFailure("ENOTFOUND")).toBe(false);
  });
});
