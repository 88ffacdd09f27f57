import { describe, expect, it } from "vitest";
import { eventSyncMode } from "../../../../src/features/events/event-sync-mode.js";
import { stateOfNotificationType, subscriptionNotificationSchema } from "../../../../src/features/events/subscription-notification.js";

const NOW = Date.parse("2026-11-28T05:00:00Z");
const LIMIT = 3_600_000;

describe("a project's event sync mode", () => {
  it("falls back while the subscription is suspended or revoked, however recent the last event", () => {
    expect(eventSyncMode({ state: "suspended", lastHeardAt: NOW, nowMs: NOW, silenceLimitMs: LIMIT })).toEqual({
      fallback: true,
      reason: "suspended",
    });
    expect(eventSyncMode({ state: "revoked", lastHeardAt: null, nowMs: NOW, silenceLimitMs: LIMIT })).toEqual({
      fallback: true,
      reason: "revoked",
    });
  });

  it("falls back when an active subscription has been silent beyond its limit, not at the limit", () => {
    expect(eventSyncMode({ state: "active", lastHeardAt: NOW - LIMIT - 1, nowMs: NOW, silenceLimitMs: LIMIT })).toEqual({
      fallback: true,
      reason: "silent",
    });
    expect(eventSyncMode({ state: "active", lastHeardAt: NOW - LIMIT, nowMs: NOW, silenceLimitMs: LIMIT })).toEqual({ fallback: false });
  });

  it("does not judge a subscription that has never been heard from", () => {
    expect(eventSyncMode({ state: "active", lastHeardAt: null, nowMs: NOW, silenceLimitMs: LIMIT })).toEqual({ fallback: false });
  });
});

describe("the Event Platform's notification types", () => {
  it("map the four documented types to the three states, and nothing else", () => {
    expect(stateOfNotificationType("subscription.suspended.system")).toBe("suspended");
    expect(stateOfNotificationType("subscription.suspended.user")).toBe("suspended");
    expect(stateOfNotificationType("subscription.revoked")).toBe("revoked");
    expect(stateOfNotificationType("subscription.resumed")).toBe("active");
    expect(stateOfNotificationType("subscription.paused")).toBeNull();
    expect(stateOfNotificationType("toString")).toBeNull();
  });

  it("parse the documented payload, and refuse one without the subscription or the time, naming the field", () => {
    const documented = {
      notification_type: "subscription.suspended.system",
      timestamp: "2026-04-29T12:34:56Z",
      subscription_id: "018e1ec5-29da-78ad-aae6-92065b9ca2a6",
      subscriber_id: "018e1ec5-29da-78ad-aae6-92065b9ca2a5",
      destination: "https://my-app.example.com/webhook",
      events: ["com.akeneo.pim.v1.product.created"],
      reason: "Success rate dropped below 90%",
      subject: "https://example.cloud.akeneo.com/",
    };
    expect(subscriptionNotificationSchema.parse(documented).subscription_id).toBe(documented.subscription_id);
    const { subscription_id: _id, timestamp: _time, ...without } = documented;
    const refused = subscriptionNotificationSchema.safeParse(without);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join(".")).sort()).toEqual(["subscription_id", "timestamp"]);
  });
});
