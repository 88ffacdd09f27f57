import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

interface Rule {
  readonly name: string;
  readonly to: { readonly path?: string | readonly string[] };
}

const root = new URL("../../../", import.meta.url);
const config = createRequire(import.meta.url)(new URL(".dependency-cruiser.cjs", root).pathname) as { forbidden: readonly Rule[] };
const architecture = readFileSync(new URL("docs/architecture.md", root), "utf8");

/** The groups in the order the config's layer rules state them: each rule's group, then the last one they all forbid. */
function configGroups(): string[] {
  const rules = config.forbidden.filter((rule) => rule.name.startsWith("group-"));
  const groups = rules.map((rule) => rule.name.slice("group-".length));
  const abovePaths = [rules[0]?.to.path ?? []].flat();
  const top = /^\^src\/([^/]+)\/$/.exec(abovePaths.at(-1) ?? "")?.[1];
  return top === undefined ? groups : [...groups, top];
}

/** The first column of the Layers table in docs/architecture.md. */
function documentedGroups(): string[] {
  const section = architecture.slice(architecture.indexOf("## Layers"), architecture.indexOf("## Composition root"));
  return [...section.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((match) => match[1] ?? "");
}

describe("docs/architecture.md and .dependency-cruiser.cjs state one layering", () => {
  it("the docs' table lists the config's groups, in the config's order", () => {
    expect(configGroups().length).toBeGreaterThan(5);
    expect(documentedGroups()).toEqual(configGroups());
  });

  it("src/ holds exactly those groups: at most 12 entries, no loose file, no simulators", () => {
    const entries = readdirSync(new URL("src/", root)).sort();
    expect(entries).toEqual([...configGroups()].sort());
    expect(entries.length).toBeLessThanOrEqual(12);
  });

  it("the config states at most 20 rules, as many as the docs say", () => {
    expect(config.forbidden.length).toBeLessThanOrEqual(20);
    expect(architecture).toContain(`.dependency-cruiser.cjs\`: ${config.forbidden.length} rules`);
  });
});
