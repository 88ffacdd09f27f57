import { describe, expect, it } from "vitest";
import { redactorOfSettings } from "../../../../src/infra/secrets/redactor-of-settings.js";
import { REDACTED } from "../../../../src/infra/secrets/redactor.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";

const CONFIG = {
  redis: { url: "redis://default:redis-pass-1@127.0.0.1:6379" },
  trigger: { token: "trigger-token-0123456789" },
  server: {
    metrics_token: "metrics-token-0123456789",
    admin: { users: [{ name: "ops", password: "admin-password-1", role: "admin", token: "admin-token-0123456789" }] },
  },
  projects: [
    {
      id: 1,
      pim: {
        url: "http://pim.example",
        client_id: "client-id-1",
        secret: "pim-secret-1",
        username: "pim-user-1",
        password: "pim-pass-1",
        events: { secret: "event-secret-primary-1", secondary_secret: "event-secret-second-1" },
      },
      service: { url: "http://service.example", email: "ops@example.com", password: "svc-pass-1" },
    },
    {
      id: 2,
      pim: {
        url: "http://pim.example",
        client_id: "client-id-2",
        secret: "pim-secret-2",
        username: "pim-user-2",
        password: "${UNSET_PIM_PASSWORD}",
      },
      service: { url: "http://service.example", token: "svc-token-2" },
    },
  ],
  activation: {
    url: "http://activation.example",
    pim_connection_id: "conn-1",
    access_token: "act-token-1",
    orders: { sink: { type: "webhook", url: "http://hook.example", token: "hook-token-1" } },
  },
};

describe("redactorOfSettings", () => {
  const settings = parseSettings(JSON.stringify(CONFIG), "test", {}, { secrets: "optional" });
  const redactor = redactorOfSettings(settings);

  it.each([
    "redis-pass-1",
    "trigger-token-0123456789",
    "metrics-token-0123456789",
    "admin-password-1",
    "admin-token-0123456789",
    "client-id-1",
    "pim-secret-1",
    "pim-user-1",
    "pim-pass-1",
    "event-secret-primary-1",
    "event-secret-second-1",
    "ops@example.com",
    "svc-pass-1",
    "svc-token-2",
    "act-token-1",
    "hook-token-1",
    Buffer.from("client-id-2:pim-secret-2").toString("base64"),
    Buffer.from("ops:admin-password-1").toString("base64"),
  ])("removes %s", (secret) => {
    expect(redactor.redact(`a ${secret} b`)).toBe(`a ${REDACTED} b`);
  });

  it("leaves what is not a secret: URLs, the connection id, an unset variable's placeholder", () => {
    const text = `http://pim.example conn-1 ${settings.projects[1]?.pim.password ?? ""}`;
    expect(text).toContain("UNSET_PIM_PASSWORD");
    expect(redactor.redact(text)).toBe(text);
  });
});
