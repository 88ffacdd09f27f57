import { describe, expect, it } from "vitest";
import { adminRouteRules } from "../../../../src/server/admin/admin-route-rules.js";
import { decideAdminRequest } from "../../../../src/server/admin/decide-admin-request.js";

const rules = adminRouteRules(["project-67"]);
const decide = (method: string, route: string | undefined, params: Record<string, string> = {}, role: "admin" | "viewer" = "admin") =>
  decideAdminRequest(rules, { method, route, params, role });

describe("decideAdminRequest", () => {
  it("lets an admin clean finished jobs of a project's queue, and nothing else", () => {
    const clean = "/admin/api/queues/:queueName/clean/:queueStatus";
    for (const status of ["completed", "failed"])
      expect(decide("PUT", clean, { queueName: "project-67", queueStatus: status })).toMatchObject({ allowed: true });
    for (const status of ["wait", "waiting", "delayed", "active", "paused", "prioritized", "Completed", "completed ", "failed\u0000"]) {
      expect(decide("PUT", clean, { queueName: "project-67", queueStatus: status }), status).toMatchObject({
        allowed: false,
        status: 403,
        error: expect.stringMatching(/queueStatus: only completed and failed/),
      });
    }
    expect(decide("PUT", clean, { queueName: "project-5", queueStatus: "failed" })).toMatchObject({
      allowed: false,
      error: expect.stringMatching(/queueName: not a configured queue/),
    });
  });

  it("retries only failed jobs as a whole", () => {
    const retry = "/admin/api/queues/:queueName/retry/:queueStatus";
    expect(decide("PUT", retry, { queueName: "project-67", queueStatus: "failed" })).toMatchObject({ allowed: true });
    expect(decide("PUT", retry, { queueName: "project-67", queueStatus: "completed" })).toMatchObject({ allowed: false, status: 403 });
  });

  it("refuses the routes nobody may call, giving the reason", () => {
    expect(decide("POST", "/admin/api/queues/:queueName/add", { queueName: "project-67" })).toMatchObject({
      allowed: false,
      status: 403,
      error: expect.stringMatching(/trigger routes/),
    });
    expect(decide("PUT", "/admin/api/queues/:queueName/obliterate", { queueName: "project-67" })).toMatchObject({
      allowed: false,
      status: 403,
    });
  });

  it("a viewer reads, and is refused every change", () => {
    expect(decide("GET", "/admin/api/queues", {}, "viewer")).toMatchObject({ allowed: true });
    expect(decide("HEAD", "/admin/static/*", {}, "viewer")).toMatchObject({ allowed: true });
    expect(decide("PUT", "/admin/api/queues/:queueName/promote", { queueName: "project-67" }, "viewer")).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(decide("POST", "/admin/api/projects/:id/sync", { id: "67" }, "viewer")).toMatchObject({ allowed: false, status: 403 });
  });

  it("denies by default: an unlisted route (any method) and a change to no route; a read of no route passes (404)", () => {
    expect(decide("GET", "/admin/api/something-new")).toMatchObject({ allowed: false, status: 403 });
    expect(decide("POST", undefined)).toMatchObject({ allowed: false, status: 403 });
    expect(decide("OPTIONS", undefined)).toMatchObject({ allowed: false, status: 403 });
    expect(decide("GET", undefined)).toEqual({ allowed: true, rule: null });
  });

  it("answers 405 with Allow for a listed route called with another method", () => {
    expect(decide("GET", "/admin/api/projects/:id/sync", { id: "67" })).toEqual({
      allowed: false,
      status: 405,
      error: "/admin/api/projects/:id/sync answers POST only",
      allow: "POST",
    });
  });
});
