import { readFileSync } from "node:fs";

/** The official Akeneo payloads the tests use, copied into the repository (see its README). */
export const AKENEO_FIXTURES = new URL("../../../fixtures/akeneo/", import.meta.url);

export function akeneoFixtureText(name: string): string {
  return readFileSync(new URL(name, AKENEO_FIXTURES), "utf8");
}

export function akeneoFixture(name: string): unknown {
  const parsed: unknown = JSON.parse(akeneoFixtureText(name));
  return parsed;
}
