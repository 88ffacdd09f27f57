import { describe, expect, it } from "vitest";
import { redactorOfSettings } from "../../../src/infra/secrets/redactor-of-settings.js";
import { parseSettings } from "../../../src/settings/load-settings.js";
import { problemsOf } from "../../support/problems-of.js";

/** Every character that breaks a password written into a Redis URL. */
const PASSWORD = "p@ss/w#rd?%40:x y";
const PROJECT = {
  id: 1,
  pim: { url: "http://pim.example", client_id: "c", secret: "s", username: "u", password: "p" },
  service: { url: "http://service.example", token: "t" },
};

function parse(
  redis: Record<string, unknown>,
  env: Record<string, string> = { REDIS_PASSWORD: PASSWORD },
): ReturnType<typeof parseSettings> {
  return parseSettings(JSON.stringify({ redis, projects: [PROJECT] }), "test", env);
}

describe("redis.password", () => {
  it("is taken from the environment as written, whatever it holds, with the URL left as it is", () => {
    const settings = parse({ url: "redis://redis:6379", password: "${REDIS_PASSWORD}" });

    expect(settings.redis?.password).toBe(PASSWORD);
    expect(settings.redis?.url).toBe("redis://redis:6379");
  });

  it("is optional: a URL alone (with or without its own password) is enough", () => {
    expect(parse({ url: "redis://:in-the-url@redis:6379" }).redis?.password).toBeUndefined();
    expect(parse({ url: "redis://redis:6379" }).redis?.password).toBeUndefined();
  });

  it("is refused beside a URL that carries a password too (one place only), without echoing either", () => {
    const problems = problemsOf(() => parse({ url: "redis://:url-secret@redis:6379", password: "${REDIS_PASSWORD}" }));

    expect(problems).toEqual(["redis.password: the Redis URL carries a password too: give it in one place only"]);
    expect(problems.join("\n")).not.toContain("url-secret");
    expect(problems.join("\n")).not.toContain(PASSWORD);
  });

  it("is refused beside cluster nodes that carry a password", () => {
    const problems = problemsOf(() => parse({ cluster: { nodes: ["redis://:node-secret@10.0.0.1:6379"] }, password: "x" }));

    expect(problems).toEqual(["redis.password: the Redis URL carries a password too: give it in one place only"]);
  });

  it("must not be empty (an unset-looking variable)", () => {
    expect(problemsOf(() => parse({ url: "redis://redis:6379", password: "${REDIS_PASSWORD}" }, { REDIS_PASSWORD: "" }))).toEqual([
      "redis.password: must not be empty",
    ]);
  });

  it("is removed from logs, errors and answers like every other secret", () => {
    const redactor = redactorOfSettings(parse({ url: "redis://redis:6379", password: "${REDIS_PASSWORD}" }));

    expect(redactor.redact(`AUTH failed for ${PASSWORD}`)).not.toContain(PASSWORD);
  });
});
