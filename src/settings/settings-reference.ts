import { z } from "zod";
import { settingsSchema } from "./settings-schema.js";

/** One configuration key as docs/configuration.md lists it. */
export interface SettingsReferenceRow {
  /** Dotted path; `[]` marks the items of a list (`projects[].pim.url`). */
  readonly key: string;
  /** The default as YAML would spell it, `required`, or `none` (optional, no default). */
  readonly defaultValue: string;
  readonly description: string;
  /** Marked with `secret()` (src/settings/secret.ts): redacted everywhere, may be unset for the commands that call no upstream. */
  readonly secret: boolean;
}

/**
 * The reference table of every configuration key, read from the settings schema itself (its
 * `.describe()` texts and defaults), so the schema is the one home of both and the docs cannot
 * drift from it (test/unit/settings/settings-reference.test.ts compares them).
 *
 * Walks the schema's JSON Schema (input side: what users write) rather than zod's internals:
 * that is zod's public, stable view of a schema. Leaves are listed, not sections, except a
 * section whose items have no keys of their own (a list of codes) or that is described as a whole
 * with no described leaves.
 */
export function settingsReference(schema: z.ZodType = settingsSchema): SettingsReferenceRow[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  const rows: SettingsReferenceRow[] = [];
  walk(asNode(json), "", true, rows);
  return rows;
}

interface JsonNode {
  readonly type?: unknown;
  readonly description?: unknown;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly items?: unknown;
  readonly anyOf?: readonly unknown[];
  readonly oneOf?: readonly unknown[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly secret?: unknown;
}

function asNode(value: unknown): JsonNode {
  return typeof value === "object" && value !== null ? (value as JsonNode) : {};
}

function walk(node: JsonNode, key: string, required: boolean, rows: SettingsReferenceRow[]): void {
  const properties = propertiesOf(node);
  if (properties.size > 0) {
    for (const [name, { child, isRequired }] of properties) {
      walk(child, key === "" ? name : `${key}.${name}`, isRequired, rows);
    }
    return;
  }
  const items = itemsOf(node);
  if (items !== undefined && propertiesOf(items).size > 0) {
    walk(items, `${key}[]`, true, rows);
    return;
  }
  rows.push({ key, defaultValue: defaultOf(node, required), description: descriptionOf(node), secret: isSecret(node) });
}

/** The keys of an object, or of every variant of a union of objects (listed once each). */
function propertiesOf(node: JsonNode): Map<string, { child: JsonNode; isRequired: boolean }> {
  const found = new Map<string, { child: JsonNode; isRequired: boolean }>();
  const variants = [node, ...(node.anyOf ?? []).map(asNode), ...(node.oneOf ?? []).map(asNode)];
  for (const variant of variants) {
    const required = new Set(variant.required ?? []);
    for (const [name, child] of Object.entries(variant.properties ?? {})) {
      const existing = found.get(name);
      const childNode = asNode(child);
      if (existing === undefined) found.set(name, { child: childNode, isRequired: required.has(name) });
      else if (descriptionOf(existing.child) === "" && descriptionOf(childNode) !== "")
        found.set(name, { child: childNode, isRequired: existing.isRequired });
    }
  }
  return found;
}

function itemsOf(node: JsonNode): JsonNode | undefined {
  if (node.items !== undefined) return asNode(node.items);
  for (const variant of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const items = asNode(variant).items;
    if (items !== undefined) return asNode(items);
  }
  return undefined;
}

function descriptionOf(node: JsonNode): string {
  if (typeof node.description === "string") return node.description;
  for (const variant of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const description = asNode(variant).description;
    if (typeof description === "string") return description;
  }
  return "";
}

function isSecret(node: JsonNode): boolean {
  return node.secret === true || [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some((variant) => asNode(variant).secret === true);
}

function defaultOf(node: JsonNode, required: boolean): string {
  if (node.default !== undefined) return formatDefault(node.default);
  return required ? "required" : "none";
}

function formatDefault(value: unknown): string {
  if (typeof value === "string") return value === "" ? '""' : value;
  if (Array.isArray(value) && value.length === 0) return "[]";
  return JSON.stringify(value);
}

/** The Markdown table docs/configuration.md holds between its generated-table markers. */
export function renderSettingsReference(rows: readonly SettingsReferenceRow[]): string {
  const escape = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  const lines = ["| key | default | secret | meaning |", "|---|---|---|---|"];
  for (const row of rows)
    lines.push(`| \`${row.key}\` | ${escape(row.defaultValue)} | ${row.secret ? "secret" : ""} | ${escape(row.description)} |`);
  return lines.join("\n");
}

export const REFERENCE_START =
  "<!-- settings-reference:start (generated from src/settings/settings-schema.ts by `npm run docs:config`; do not edit by hand) -->";
export const REFERENCE_END = "<!-- settings-reference:end -->";

/** Replaces the generated table in a document's text; throws when the markers are missing. */
export function withSettingsReference(document: string, table: string): string {
  const start = document.indexOf(REFERENCE_START);
  const end = document.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error("the document has no settings-reference markers");
  return `${document.slice(0, start + REFERENCE_START.length)}\n${table}\n${document.slice(end)}`;
}
