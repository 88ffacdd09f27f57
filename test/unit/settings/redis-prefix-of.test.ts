import { describe, expect, it } from "vitest";
import { redisPrefixOf } from "../../../src/settings/redis-prefix-of.js";
import { settingsSchema } from "../../../src/settings/settings-schema.js";

const PROJECT = {
  id: 1,
  pim: { url: "http://pim.example", client_id: "c", secret: "s", username: "u", password: "p" },
  service: { url: "http://service.example", token: "t" },
};

describe("redisPrefixOf", () => {
  it("is the config's prefix", () => {
    expect(redisPrefixOf(settingsSchema.parse({ projects: [PROJECT], redis: { url: "redis://127.0.0.1:6379", prefix: "fleet-a" } }))).toBe(
      "fleet-a",
    );
  });

  it("is the schema's default for a Redis used without a redis section, as for one without a prefix", () => {
    expect(redisPrefixOf(settingsSchema.parse({ projects: [PROJECT] }))).toBe("pim-sync");
    expect(redisPrefixOf(settingsSchema.parse({ projects: [PROJECT], redis: { url: "redis://127.0.0.1:6379" } }))).toBe("pim-sync");
  });
});
