/**
 * Collection (and field) names are built from templates because public sources disagree on the
 * suffix order (`attr-locale-channel` in the service's examples, `attr-channel-locale` in the
 * connector's docs); whichever a tenant really uses must be a configuration change, not a code
 * change.
 */

export interface NamingTemplates {
  select: string;
  localizable: string;
  scopable: string;
  localizableScopable: string;
  unit: string;
  currency: string;
}

export const DEFAULT_NAMING: NamingTemplates = Object.freeze({
  select: "{attribute}",
  localizable: "{attribute}-{locale}",
  scopable: "{attribute}-{channel}",
  localizableScopable: "{attribute}-{locale}-{channel}",
  unit: "{attribute}-unit",
  currency: "{attribute}-currency",
});

type Placeholder = "attribute" | "locale" | "channel";

/**
 * Each template must use exactly the dimensions its collections vary by: a missing one would make
 * sibling collections collide, and an extra one has no value to fill (units and currencies are
 * the same for every locale and channel).
 */
const PLACEHOLDERS_BY_TEMPLATE: Readonly<Record<keyof NamingTemplates, readonly Placeholder[]>> = {
  select: ["attribute"],
  localizable: ["attribute", "locale"],
  scopable: ["attribute", "channel"],
  localizableScopable: ["attribute", "locale", "channel"],
  unit: ["attribute"],
  currency: ["attribute"],
};

const ALL_PLACEHOLDERS: readonly Placeholder[] = ["attribute", "locale", "channel"];
const PLACEHOLDER_TOKEN = /\{([^{}]*)\}/g;

export function validateNamingTemplates(t: NamingTemplates): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(PLACEHOLDERS_BY_TEMPLATE) as (keyof NamingTemplates)[]) {
    problems.push(...templateProblems(key, t[key]));
  }
  return problems;
}

export function renderName(template: string, vars: { attribute: string; locale?: string | null; channel?: string | null }): string {
  return template.replace(PLACEHOLDER_TOKEN, (token: string, name: string) => {
    if (!isPlaceholder(name)) {
      throw new Error(`Naming template '${template}' uses unknown placeholder ${token}`);
    }
    const value = vars[name];
    // An empty value would silently produce a name shared with a sibling collection.
    if (value === undefined || value === null || value === "") {
      throw new Error(`Naming template '${template}' uses ${token} but no ${name} was given`);
    }
    return value;
  });
}

function templateProblems(key: keyof NamingTemplates, template: unknown): string[] {
  if (typeof template !== "string") {
    return [`naming template '${key}' is missing`];
  }
  const problems: string[] = [];
  const used = new Set<Placeholder>();
  for (const [token, name] of template.matchAll(PLACEHOLDER_TOKEN)) {
    if (name !== undefined && isPlaceholder(name)) {
      used.add(name);
    } else {
      problems.push(`naming template '${key}' uses unknown placeholder ${token}`);
    }
  }
  if (/[{}]/.test(template.replace(PLACEHOLDER_TOKEN, ""))) {
    problems.push(`naming template '${key}' has an unmatched '{' or '}'`);
  }
  const wanted = PLACEHOLDERS_BY_TEMPLATE[key];
  for (const placeholder of ALL_PLACEHOLDERS) {
    if (wanted.includes(placeholder) && !used.has(placeholder)) {
      problems.push(`naming template '${key}' must use {${placeholder}}`);
    }
    if (!wanted.includes(placeholder) && used.has(placeholder)) {
      problems.push(`naming template '${key}' must not use {${placeholder}}`);
    }
  }
  return problems;
}

function isPlaceholder(name: string): name is Placeholder {
  return (ALL_PLACEHOLDERS as readonly string[]).includes(name);
}
