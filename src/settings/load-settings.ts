import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { validateNamingTemplates } from "../derive/naming.js";
import { ConfigError } from "./config-error.js";
import { formatPath, interpolateEnv } from "./interpolate-env.js";
import { settingsSchema, type Settings } from "./settings-schema.js";

/** Reads, interpolates and validates a config file (YAML or JSON). Called from entry points only. */
export async function loadSettings(path: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new ConfigError(path, [`cannot read the file: ${(cause as Error).message}`]);
  }
  return parseSettings(text, path, env);
}

export function parseSettings(text: string, source: string, env: Readonly<Record<string, string | undefined>>): Settings {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (cause) {
    throw new ConfigError(source, [`not valid YAML or JSON: ${(cause as Error).message}`]);
  }
  const { value, missing } = interpolateEnv(document, env);
  const parsed = settingsSchema.safeParse(value);
  const problems = [...missing];
  if (!parsed.success) problems.push(...describeSettingsIssues(parsed.error.issues));
  if (parsed.success) {
    parsed.data.projects.forEach((project, index) => {
      const naming = project.naming;
      const templateProblems = validateNamingTemplates({
        select: naming.select,
        localizable: naming.localizable,
        scopable: naming.scopable,
        localizableScopable: naming.localizable_scopable,
        unit: naming.unit,
        currency: naming.currency,
      });
      for (const problem of templateProblems) problems.push(`projects[${index}].naming: ${problem}`);
    });
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(source, problems);
  return parsed.data;
}

function describeSettingsIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return `${formatPath(issue.path)}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
    }
    return `${formatPath(issue.path)}: ${issue.message}`;
  });
}
