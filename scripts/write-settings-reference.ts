/**
 * `npm run docs:config`: rewrites the configuration table of docs/configuration.md from the
 * settings schema. The unit test test/unit/settings/settings-reference.test.ts fails until this
 * has been run after a change to the schema's keys, defaults or descriptions.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { renderSettingsReference, settingsReference, withSettingsReference } from "../src/settings/settings-reference.js";

const document = fileURLToPath(new URL("../../docs/configuration.md", import.meta.url));
const before = await readFile(document, "utf8");
const after = withSettingsReference(before, renderSettingsReference(settingsReference()));
await writeFile(document, after);
process.stdout.write(before === after ? "docs/configuration.md: already up to date\n" : "docs/configuration.md: table rewritten\n");
