import { describe, expect, it } from "vitest";
import { DOCUMENTED_NAMING } from "../../support/documented-naming.js";
import {
  deletionGuardSchema,
  namingSchema,
  pimConnectionSchema,
  projectSchema,
  serviceConnectionSchema,
} from "../../../src/settings/settings-schema.js";

const pim = { url: "https://pim.example.com", client_id: "c", secret: "s", username: "u", password: "p" };
const service = { url: "https://svc.example.com", token: "t" };

describe("pimConnectionSchema", () => {
  it("fills Akeneo's limits: 4 in flight, 100 req/s, 3 option writes/s", () => {
    expect(pimConnectionSchema.parse(pim)).toEqual({ ...pim, max_in_flight: 4, requests_per_second: 100, option_writes_per_second: 3 });
  });

  it.each(["http://pim.local", "https://pim.example.com/base/", "http://127.0.0.1:8081"])("accepts the URL %s", (url) => {
    expect(pimConnectionSchema.safeParse({ ...pim, url }).success).toBe(true);
  });

  it.each(["ftp://pim", "pim.example.com", "", "file:///etc/passwd", "ws://pim"])("rejects the URL %j with a readable message", (url) => {
    const result = pimConnectionSchema.safeParse({ ...pim, url });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain("must be an http(s) URL");
  });

  it.each([
    ["max_in_flight", 1, true],
    ["max_in_flight", 10, true],
    ["max_in_flight", 0, false],
    ["max_in_flight", 11, false],
    ["max_in_flight", 2.5, false],
    ["requests_per_second", 0.5, true],
    ["requests_per_second", 1000, true],
    ["requests_per_second", 0, false],
    ["requests_per_second", 1001, false],
    ["option_writes_per_second", 100, true],
    ["option_writes_per_second", 100.5, false],
    ["option_writes_per_second", -1, false],
  ] as const)("%s = %s valid: %s", (key, value, valid) => {
    expect(pimConnectionSchema.safeParse({ ...pim, [key]: value }).success).toBe(valid);
  });

  it.each(["client_id", "secret", "username", "password"])("rejects a blank %s", (key) => {
    const result = pimConnectionSchema.safeParse({ ...pim, [key]: "  " });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([key]);
    expect(result.error?.issues[0]?.message).toBe("must not be empty");
  });
});

describe("serviceConnectionSchema", () => {
  it("takes a token", () => {
    expect(serviceConnectionSchema.parse(service)).toEqual({ ...service, requests_per_second: 10, max_in_flight: 8 });
  });

  it("takes a login, with token_name defaulting to pim-sync", () => {
    expect(serviceConnectionSchema.parse({ url: service.url, email: "bot@example.com", password: "pw" })).toEqual({
      url: service.url,
      email: "bot@example.com",
      password: "pw",
      token_name: "pim-sync",
      requests_per_second: 10,
      max_in_flight: 8,
    });
  });

  it("rejects a blank token_name", () => {
    expect(serviceConnectionSchema.safeParse({ url: service.url, email: "bot@example.com", password: "pw", token_name: "" }).success).toBe(
      false,
    );
  });

  it("rejects more than 100 requests per second", () => {
    expect(serviceConnectionSchema.safeParse({ ...service, requests_per_second: 100 }).success).toBe(true);
    expect(serviceConnectionSchema.safeParse({ ...service, requests_per_second: 100.1 }).success).toBe(false);
  });
});

describe("namingSchema and deletionGuardSchema", () => {
  it("default the naming templates", () => {
    expect(namingSchema.parse({})).toEqual(DOCUMENTED_NAMING);
  });

  it("rejects an unknown naming key", () => {
    const result = namingSchema.safeParse({ selects: "{attribute}" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe("unrecognized_keys");
  });

  it.each([
    [{ max_fraction: 0 }, true],
    [{ max_fraction: 1 }, true],
    [{ max_fraction: -0.1 }, false],
    [{ max_fraction: 1.01 }, false],
    [{ min_count: 1 }, true],
    [{ min_count: 0 }, false],
    [{ min_count: 2.5 }, false],
  ])("deletion_guard %j valid: %s", (value, valid) => {
    expect(deletionGuardSchema.safeParse(value).success).toBe(valid);
  });
});

describe("projectSchema: codes and locales", () => {
  it.each(["ecommerce", "print_2", "A1"])("accepts the channel %s", (channel) => {
    expect(projectSchema.safeParse({ id: 1, pim, service, channels: [channel] }).success).toBe(true);
  });

  it.each(["bad-channel", "with space", "", "é"])("rejects the channel %j", (channel) => {
    const result = projectSchema.safeParse({ id: 1, pim, service, channels: [channel] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["channels", 0]);
  });

  it.each(["en_US", "en-US", "fr", "zh_Hant_TW", "es_419", "haw_US"])("accepts the locale %s", (locale) => {
    expect(projectSchema.safeParse({ id: 1, pim, service, locales: [locale] }).success).toBe(true);
  });

  it.each(["english", "e", "en_", "en US", "en_U"])("rejects the locale %j", (locale) => {
    const result = projectSchema.safeParse({ id: 1, pim, service, locales: [locale] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("must be a locale code such as en_US");
  });

  it.each(["color", "brand_2"])("accepts %s as an attribute open to additions", (code) => {
    expect(projectSchema.safeParse({ id: 1, pim, service, allowed_options_for_pim_attribute_addition: [code] }).success).toBe(true);
  });

  it("rejects a non-code attribute open to additions", () => {
    expect(projectSchema.safeParse({ id: 1, pim, service, allowed_options_for_pim_attribute_addition: ["not-a-code"] }).success).toBe(
      false,
    );
  });
});
