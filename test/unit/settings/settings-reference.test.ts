import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { renderSettingsReference, settingsReference, withSettingsReference } from "../../../src/settings/settings-reference.js";
import { secret } from "../../../src/settings/secret.js";

const docPath = new URL("../../../docs/configuration.md", import.meta.url);

describe("the configuration reference is generated from the settings schema", () => {
  it("docs/configuration.md holds exactly the table the schema gives (run `npm run docs:config` after changing the schema)", async () => {
    const document = await readFile(docPath, "utf8");
    expect(document).toBe(withSettingsReference(document, renderSettingsReference(settingsReference())));
  });

  it("every key has a description, so none reaches the docs unexplained", () => {
    const undescribed = settingsReference()
      .filter((row) => row.description.trim() === "")
      .map((row) => row.key);
    expect(undescribed).toEqual([]);
  });

  it("lists nested keys with their defaults, list items with [], and required keys as required", () => {
    const schema = z.strictObject({
      a: z.int().default(3).describe("an int"),
      section: z.strictObject({ name: z.string().describe("a name"), flag: z.boolean().optional().describe("a flag") }).optional(),
      items: z.array(z.strictObject({ code: z.string().default("x").describe("a code") })).default([]),
      codes: z.array(z.string()).default([]).describe("some codes"),
      either: z.union([
        z.strictObject({ token: secret(z.string()).describe("a token") }),
        z.strictObject({ email: z.string().describe("an email") }),
      ]),
    });
    expect(settingsReference(schema)).toEqual([
      { key: "a", defaultValue: "3", description: "an int", secret: false },
      { key: "section.name", defaultValue: "required", description: "a name", secret: false },
      { key: "section.flag", defaultValue: "none", description: "a flag", secret: false },
      { key: "items[].code", defaultValue: "x", description: "a code", secret: false },
      { key: "codes", defaultValue: "[]", description: "some codes", secret: false },
      { key: "either.token", defaultValue: "required", description: "a token", secret: true },
      { key: "either.email", defaultValue: "required", description: "an email", secret: false },
    ]);
  });

  it("a table cell never breaks the Markdown table", () => {
    expect(renderSettingsReference([{ key: "k", defaultValue: "a|b", description: "one\ntwo | three", secret: true }])).toBe(
      "| key | default | secret | meaning |\n|---|---|---|---|\n| `k` | a\\|b | secret | one two \\| three |",
    );
  });

  it("refuses a document without its markers instead of appending a table somewhere", () => {
    expect(() => withSettingsReference("# no markers here\n", "| table |")).toThrow(/markers/);
  });
});
