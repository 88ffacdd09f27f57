import { describe, expect, it } from "vitest";
import { z } from "zod";
import { redactorOfSettings } from "../../../src/infra/secrets/redactor-of-settings.js";
import { createLogger } from "../../../src/infra/log/create-logger.js";
import { interpolateEnv } from "../../../src/settings/interpolate-env.js";
import { isSecretPath, secretKeysOf, secretPathsOf } from "../../../src/settings/is-secret-path.js";
import { settingsReference } from "../../../src/settings/settings-reference.js";
import { secret } from "../../../src/settings/secret.js";
import { settingsSchema, type Settings } from "../../../src/settings/settings-schema.js";

const API_KEY = "geo-api-key-0123456789";

/** The settings schema with a key it does not have today: an upstream's API key, marked or not. */
function withGeocoder(marked: boolean) {
  const apiKey = z.string().min(8).describe("the geocoder's API key");
  return settingsSchema.safeExtend({
    geocoder: z.strictObject({ url: z.string(), api_key: marked ? secret(apiKey) : apiKey }).optional(),
  });
}

const DOCUMENT = {
  projects: [
    {
      id: 1,
      pim: { url: "http://pim.example", client_id: "id", secret: "pim-secret", username: "user", password: "pim-pass" },
      service: { url: "http://service.example", token: "service-token" },
    },
  ],
  geocoder: { url: "http://geo.example", api_key: "${GEOCODER_API_KEY}" },
};

/** What leaves through the sinks: a log line, an error, a job's data. */
function sinksOf(schema: z.ZodType, settings: Settings): { log: string; error: string; jobData: string } {
  const redactor = redactorOfSettings(settings, secretPathsOf(schema));
  const lines: string[] = [];
  createLogger({ level: "info", redactor, destination: { write: (line: string) => void lines.push(line) } }).info(
    { answer: `the geocoder echoed key=${API_KEY}` },
    "geocoder refused",
  );
  const error = redactor.redactError(new Error(`401 from the geocoder: ${API_KEY}`));
  const jobData = redactor.redactValue({ lookup: { headers: { "x-api-key": API_KEY } } });
  return { log: lines.join(""), error: `${error.message}\n${error.stack ?? ""}`, jobData: JSON.stringify(jobData) };
}

describe("a key marked secret() in the settings schema", () => {
  const env = { GEOCODER_API_KEY: API_KEY };

  it("is redacted in logs, errors and job data, with no list to add it to", () => {
    const schema = withGeocoder(true);
    const settings = schema.parse(interpolateEnv(DOCUMENT, env).value) as Settings;
    const { log, error, jobData } = sinksOf(schema, settings);
    for (const text of [log, error, jobData]) {
      expect(text).not.toContain(API_KEY);
      expect(text).toContain("[redacted]");
    }
  });

  it("is not redacted without the mark (the mark, not a list, decides)", () => {
    const schema = withGeocoder(false);
    const settings = schema.parse(interpolateEnv(DOCUMENT, env).value) as Settings;
    expect(Object.values(sinksOf(schema, settings)).every((text) => text.includes(API_KEY))).toBe(true);
  });

  it("may be unset for the commands that never call an upstream", () => {
    expect(interpolateEnv(DOCUMENT, {}, { mayBeUnset: secretPathsOf(withGeocoder(true)) }).missing).toEqual([]);
    expect(interpolateEnv(DOCUMENT, {}, { mayBeUnset: secretPathsOf(withGeocoder(false)) }).missing).toEqual([
      expect.stringContaining("GEOCODER_API_KEY"),
    ]);
  });

  it("the schema's marks are the credentials pim-sync holds", () => {
    const paths: (string | number)[][] = [
      ["projects", 0, "pim", "client_id"],
      ["projects", 0, "pim", "secret"],
      ["projects", 0, "pim", "username"],
      ["projects", 0, "pim", "password"],
      ["projects", 3, "pim", "events", "secret"],
      ["projects", 3, "pim", "events", "secondary_secret"],
      ["projects", 0, "service", "token"],
      ["projects", 0, "service", "password"],
      ["activation", "access_token"],
      ["activation", "orders", "sink", "token"],
      ["trigger", "token"],
      ["server", "metrics_token"],
      ["server", "admin", "users", 1, "password"],
      ["server", "admin", "users", 1, "token"],
    ];
    expect(paths.filter((path) => !isSecretPath(path))).toEqual([]);
    expect(isSecretPath(["projects", 0, "pim", "url"])).toBe(false);
    expect(isSecretPath(["server", "admin", "users", 1, "name"])).toBe(false);
    expect(isSecretPath(["projects", 0, "service", "email"])).toBe(false);
  });

  it("are found by the schema walk as the settings reference finds them in the JSON Schema", () => {
    const fromReference = (schema: z.ZodType): string[] =>
      settingsReference(schema)
        .filter((row) => row.secret)
        .map((row) => row.key)
        .sort();
    expect([...secretKeysOf(settingsSchema)].sort()).toEqual(fromReference(settingsSchema));
    expect(fromReference(settingsSchema).length).toBeGreaterThan(10);
    expect([...secretKeysOf(withGeocoder(true))].sort()).toEqual(fromReference(withGeocoder(true)));
  });

  it("stop the walk at a kind of schema it cannot read keys from, rather than miss one", () => {
    const schema = z.strictObject({ upstreams: z.record(z.string(), z.strictObject({ key: secret(z.string()) })) });
    expect(() => secretKeysOf(schema)).toThrow(/upstreams is a record/);
  });
});
