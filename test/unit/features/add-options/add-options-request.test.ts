import { describe, expect, it } from "vitest";
import { addOptionsRequestSchema } from "../../../../src/features/add-options/add-options-request.js";
import { JobDataError, parseJobData } from "../../../../src/jobs/catalog/job-catalog.js";

function issuesOf(input: unknown): string[] {
  const parsed = addOptionsRequestSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

const valid = { project: 67, attribute: "color", options: [{ name: "teal", label: { "en-US": "Teal" } }] };

describe("addOptionsRequestSchema", () => {
  it("accepts a valid request and normalises en_US label keys to en-US", () => {
    const parsed = addOptionsRequestSchema.parse({
      ...valid,
      options: [{ name: "teal", label: { en_US: "Teal", "fr-FR": "Sarcelle", zh_hant_tw: "x" } }],
    });
    expect(parsed.options[0]?.label).toEqual({ "en-US": "Teal", "fr-FR": "Sarcelle", "zh-Hant-TW": "x" });
  });

  it("defaults a missing label to no label and keeps requested_by", () => {
    const parsed = addOptionsRequestSchema.parse({ ...valid, options: [{ name: "teal" }], requested_by: "pim-rule-42" });
    expect(parsed.options[0]?.label).toEqual({});
    expect(parsed.requested_by).toBe("pim-rule-42");
  });

  it.each([
    ["a hyphen", "bad-name"],
    ["a comma", "foo,"],
    ["a space", "two words"],
    ["an empty name", ""],
    ["an accented letter", "café"],
  ])("rejects an option name with %s, naming the field", (_, name) => {
    const issues = issuesOf({ ...valid, options: [{ name }] });
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatch(/^options\.0\.name: /);
  });

  it("rejects label keys that are not locales, and empty or too long labels", () => {
    expect(issuesOf({ ...valid, options: [{ name: "a", label: { xx: "A" } }] })[0]).toMatch(
      /options\.0\.label\.xx: label keys must be locale codes with a region/,
    );
    expect(issuesOf({ ...valid, options: [{ name: "a", label: { en: "A" } }] })[0]).toMatch(/options\.0\.label\.en: /);
    expect(issuesOf({ ...valid, options: [{ name: "a", label: { "en-US": " " } }] })[0]).toMatch(
      /options\.0\.label\.en-US: labels must not be empty/,
    );
    expect(issuesOf({ ...valid, options: [{ name: "a", label: { "en-US": "x".repeat(256) } }] })[0]).toMatch(/at most 255/);
    expect(issuesOf({ ...valid, options: [{ name: "a", label: { "en-US": 3 } }] })[0]).toMatch(/options\.0\.label\.en-US/);
  });

  it("rejects a __proto__ label key as it comes from JSON.parse (zod's records would drop it unseen), with the other problems", () => {
    const sent = JSON.parse(
      '{"project": 67, "attribute": "color", "options": [{"name": "a", "label": {"__proto__": "x", "en_US": " "}}]}',
    ) as unknown;
    expect(issuesOf(sent)).toEqual([
      "options.0.label.__proto__: label keys must be locale codes with a region, such as en-US (or en_US)",
      "options.0.label.en_US: labels must not be empty",
    ]);
    const alone = JSON.parse(
      '{"project": 67, "attribute": "color", "options": [{"name": "a", "label": {"__proto__": {"en_US": "x"}}}]}',
    ) as unknown;
    expect(issuesOf(alone)).toEqual(["options.0.label.__proto__: label keys must be locale codes with a region, such as en-US (or en_US)"]);
  });

  it.each([
    ["an empty key", "", "options.0.label.: label keys must be locale codes with a region, such as en-US (or en_US); this one is empty"],
    ["a key with a space", "a b", "options.0.label.a b: label keys must be locale codes with a region, such as en-US (or en_US)"],
    [
      "a key with an empty subtag",
      "en__US",
      "options.0.label.en__US: label keys must be locale codes with a region, such as en-US (or en_US)",
    ],
  ])("refuses %s as job data (a JobDataError naming the field, never a plain error)", (_, key, problem) => {
    let thrown: unknown;
    try {
      parseJobData("options.add", { ...valid, options: [{ name: "a", label: { [key]: "!", "en-US": "ok" } }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JobDataError);
    expect((thrown as JobDataError).problems).toEqual([problem]);
  });

  it("refuses the fuzz's case, options without project or attribute and an empty label key, as a JobDataError", () => {
    expect(() => parseJobData("options.add", { options: [{ label: { "": "!" } }] })).toThrow(JobDataError);
  });

  it("rejects duplicate names, compared case-insensitively like the PIM", () => {
    expect(issuesOf({ ...valid, options: [{ name: "Red" }, { name: "red" }] })).toEqual(["options.1.name: 'red' repeats options[0]"]);
  });

  it("rejects unknown keys, a bad attribute, a bad project and an empty or oversized list", () => {
    expect(issuesOf({ ...valid, secret: "x" })[0]).toMatch(/Unrecognized key/);
    expect(issuesOf({ ...valid, attribute: "not an attribute" })[0]).toMatch(/^attribute: /);
    expect(issuesOf({ ...valid, project: "67" })[0]).toMatch(/^project: /);
    expect(issuesOf({ ...valid, options: [] })[0]).toMatch(/at least one option/);
    expect(issuesOf({ ...valid, options: Array.from({ length: 1001 }, (_, i) => ({ name: `o${i}` })) })[0]).toMatch(/at most 1000/);
    expect(issuesOf({ ...valid, options: [{ name: "a", labels: {} }] })[0]).toMatch(/Unrecognized key/);
  });
});
