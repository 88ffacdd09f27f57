import { readFileSync } from "node:fs";

/** The official payloads shared by every part of the project (read-only, outside the repo). */
export const AKENEO_FIXTURES = new URL("../../../../shared/fixtures/akeneo/", import.meta.url);

export function akeneoFixtureText(name: string): string {
  return readFileSync(new URL(name, AKENEO_FIXTURES), "utf8");
}

export function akeneoFixture(name: string): unknown {
  const parsed: unknown = JSON.parse(akeneoFixtureText(name));
  return parsed;
}
