import { readFile } from "node:fs/promises";
import { PARSED_ONCE } from "./parsed-once.js";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { validateNamingTemplates, type NamingTemplates } from "../core/derive/naming.js";
import { ConfigError } from "./config-error.js";
import { describeYamlError } from "./describe-yaml-error.js";
import { formatPath, interpolateEnv } from "./interpolate-env.js";
import { isSecretPath } from "./is-secret-path.js";
import { parseStrictJson } from "./parse-strict-json.js";
import { namingTemplatesOf } from "./naming-templates-of.js";
import { activationScheduleProblem, scheduleProblems } from "./schedule-problems.js";
import { namingSchema, projectSchema, settingsSchema, type Settings } from "./settings-schema.js";
import { messageOf } from "../core/errors/message-of.js";

export interface LoadOptions {
  /**
   * `required` (the default): every `${VAR}` must be set. `optional`: the upstream credentials
   * (see isSecretPath) may be unset, for commands that never call the upstreams (`jobs`,
   * `enqueue`, queued `add-options`): an operator replaying jobs need not hold the PIM password.
   */
  readonly secrets?: "required" | "optional";
}

/** Reads, interpolates and validates a config file (YAML or JSON). Called from entry points only. */
export async function loadSettings(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: LoadOptions = {},
): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new ConfigError(path, [`cannot read the file: ${messageOf(cause)}`]);
  }
  return parseSettings(text, path, env, options);
}

export function parseSettings(
  text: string,
  source: string,
  env: Readonly<Record<string, string | undefined>>,
  options: LoadOptions = {},
): Settings {
  const json = parseStrictJson(text);
  const document = json === undefined ? parseDocumentText(text, source) : json.value;
  const { value, missing, unsetPaths } = interpolateEnv(document, env, options.secrets === "optional" ? { mayBeUnset: isSecretPath } : {});
  const parsed = settingsSchema.safeParse(value, PARSED_ONCE);
  const problems = [...missing];
  // A key an unset variable left short is reported once, as the unset variable: its value's
  // other complaints (empty, too short, not a URL) follow from it.
  if (!parsed.success) problems.push(...describeSettingsIssues(parsed.error.issues.filter((issue) => !isUnder(issue.path, unsetPaths))));
  // Checked on the raw document, so they are reported alongside any schema problem.
  problems.push(...duplicateProjectIds(value), ...namingProblems(value), ...schedulesProblems(value));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(source, problems);
  return parsed.data;
}

/**
 * The parsed file, or a ConfigError giving where and why it is not YAML, never the offending
 * text (a secret may be written literally on that line). Warnings are not printed either: the
 * parser's own warning output quotes the line.
 */
function parseDocumentText(text: string, source: string): unknown {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, logLevel: "silent" });
  // The first error only: the ones after it are mostly its echoes. A warning (an unknown tag,
  // which the parser would read as a plain string) is an error in a config too.
  const [first] = [...document.errors, ...document.warnings];
  if (first !== undefined) throw new ConfigError(source, [`not valid YAML or JSON: ${describeYamlError(first, lines)}`]);
  try {
    return document.toJS();
  } catch {
    // An alias to an anchor never defined (its name may be the secret, as in `password: *x`).
    throw new ConfigError(source, ["not valid YAML or JSON: an alias (*name) refers to no anchor, or aliases expand to too much data"]);
  }
}

function rawProjects(document: unknown): unknown[] {
  if (document === null || typeof document !== "object" || !("projects" in document)) return [];
  return Array.isArray(document.projects) ? document.projects : [];
}

function duplicateProjectIds(document: unknown): string[] {
  const firstIndex = new Map<unknown, number>();
  const problems: string[] = [];
  rawProjects(document).forEach((project, index) => {
    if (project === null || typeof project !== "object" || !("id" in project) || typeof project.id !== "number") return;
    const first = firstIndex.get(project.id);
    if (first !== undefined) problems.push(`projects[${index}].id: project id ${project.id} appears twice (also projects[${first}])`);
    else firstIndex.set(project.id, index);
  });
  return problems;
}

function schedulesProblems(document: unknown): string[] {
  const projects = rawProjects(document).flatMap((project, index) => {
    if (project === null || typeof project !== "object" || !("schedule" in project)) return [];
    const schedule = projectSchema.shape.schedule.safeParse(project.schedule, PARSED_ONCE);
    if (!schedule.success || schedule.data === undefined) return []; // reported by the schema
    return scheduleProblems(index, "id" in project ? project.id : "?", schedule.data);
  });
  const activation = activationOrdersScheduleOf(document);
  const activationProblem = activation === undefined ? null : activationScheduleProblem(activation);
  return activationProblem === null ? projects : [...projects, activationProblem];
}

/** `activation.orders.schedule` when it is a non-empty string (anything else the schema reports). */
function activationOrdersScheduleOf(document: unknown): string | undefined {
  const activation = document !== null && typeof document === "object" && "activation" in document ? document.activation : undefined;
  const orders =
    activation !== null && typeof activation === "object" && activation !== undefined && "orders" in activation
      ? activation.orders
      : undefined;
  const schedule =
    orders !== null && typeof orders === "object" && orders !== undefined && "schedule" in orders ? orders.schedule : undefined;
  return typeof schedule === "string" && schedule.trim() !== "" ? schedule : undefined;
}

/** Template keys as users write them, for the internal names `validateNamingTemplates` uses. */
const NAMING_KEYS: Readonly<Record<keyof NamingTemplates, string>> = {
  select: "select",
  localizable: "localizable",
  scopable: "scopable",
  localizableScopable: "localizable_scopable",
  unit: "unit",
  currency: "currency",
};

function namingProblems(document: unknown): string[] {
  const problems: string[] = [];
  rawProjects(document).forEach((project, index) => {
    if (project === null || typeof project !== "object" || !("naming" in project)) return;
    const naming = namingSchema.safeParse(project.naming, PARSED_ONCE);
    if (!naming.success) return; // already reported by the schema
    const templates = namingTemplatesOf(naming.data);
    for (const problem of validateNamingTemplates(templates)) {
      problems.push(
        `projects[${index}].naming: ${problem.replace(/'([A-Za-z]+)'/g, (quoted, key: string) => (key in NAMING_KEYS ? `'${NAMING_KEYS[key as keyof NamingTemplates]}'` : quoted))}`,
      );
    }
  });
  return problems;
}

/** Whether the issue's key is one of `paths` (formatted as formatPath does) or inside one. */
function isUnder(issuePath: readonly PropertyKey[], paths: readonly string[]): boolean {
  const text = formatPath(issuePath);
  return paths.some((path) => text === path || text.startsWith(`${path}.`) || text.startsWith(`${path}[`));
}

function describeSettingsIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return `${formatPath(issue.path)}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
    }
    return `${formatPath(issue.path)}: ${issue.message}`;
  });
}
