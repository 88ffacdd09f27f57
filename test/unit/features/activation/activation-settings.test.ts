import { describe, expect, it } from "vitest";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { problemsOf } from "../../../support/problems-of.js";

const configProblems = (text: string): readonly string[] => problemsOf(() => parseSettings(text, "test.yaml", {}));

const PROJECTS = `
projects:
  - id: 67
    pim: { url: "http://pim", client_id: c, secret: s, username: u, password: p }
    service: { url: "http://service", token: t }
`;

describe("the activation section", () => {
  it("is optional: a config without it parses as before, with no activation key", () => {
    const settings = parseSettings(PROJECTS, "test.yaml", {});
    expect(settings.activation).toBeUndefined();
    expect("activation" in settings).toBe(false);
  });

  it("parses the issue's example with ${ENV} interpolation and fills the defaults", () => {
    const settings = parseSettings(
      `${PROJECTS}
activation:
  url: https://activation.example
  pim_connection_id: \${ACTIVATION_PIM_CONNECTION_ID}
  access_token: \${ACTIVATION_ACCESS_TOKEN}
  orders:
    schedule: "*/5 * * * *"
    connections: all
    sink: { type: webhook, url: "https://erp.example/orders", token: "\${WEBHOOK_TOKEN}" }
`,
      "test.yaml",
      { ACTIVATION_PIM_CONNECTION_ID: "conn-1", ACTIVATION_ACCESS_TOKEN: "tok-1", WEBHOOK_TOKEN: "hook-1" },
    );
    expect(settings.activation).toEqual({
      url: "https://activation.example",
      pim_connection_id: "conn-1",
      access_token: "tok-1",
      auth: "headers",
      requests_per_second: 5,
      cursor_param: "search_after",
      offers: { batch_size: 100, envelope: null, key: "sku", retention_days: 30 },
      orders: {
        schedule: "*/5 * * * *",
        connections: "all",
        sink: { type: "webhook", url: "https://erp.example/orders", token: "hook-1" },
        retention_days: 90,
      },
    });
  });

  it("defaults the orders part to every connection, a file sink and no schedule", () => {
    const settings = parseSettings(
      `${PROJECTS}\nactivation: { url: "http://a", pim_connection_id: c, access_token: t }\n`,
      "test.yaml",
      {},
    );
    expect(settings.activation?.orders).toEqual({ connections: "all", sink: { type: "file", dir: "./orders" }, retention_days: 90 });
  });

  it("reports unknown keys at every level, bad values and missing variables, all at once, without secret values", () => {
    const problems = configProblems(
      `${PROJECTS}
activation:
  url: ftp://nope
  pim_connection_id: c
  access_token: \${MISSING_TOKEN}
  auth: basic
  extra: 1
  offers: { batch_size: 0, envelop: offers }
  orders: { connections: [], sink: { type: s3, bucket: b } }
`,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "activation.access_token: environment variable MISSING_TOKEN is not set",
        "activation: unknown key 'extra'",
        "activation.offers: unknown key 'envelop'",
        "activation.url: must be an http(s) URL",
      ]),
    );
    expect(problems.some((p) => p.startsWith("activation.auth:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("activation.offers.batch_size:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("activation.orders.connections:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("activation.orders.sink"))).toBe(true);
  });

  it("never puts the token's value in a problem", () => {
    const problems = configProblems(
      `${PROJECTS}\nactivation: { url: "http://a", pim_connection_id: c, access_token: s3cr3t-value, requests_per_second: -1 }\n`,
    );
    expect(problems.join("\n")).not.toContain("s3cr3t-value");
  });
});
