import { readFileSync } from "node:fs";

/** The official Akeneo payloads the tests use, copied into the repository (see its README). */
const AKENEO_FIXTURES = new URL("../../../fixtures/akeneo/", import.meta.url);

/**
 * An official payload as this server sends it: the documentation's hosts in `_links` are replaced
 * by the server's own base URL, so a client following `next` comes back here.
 */
export function servedFixture(name: string, baseUrl: string): string {
  return readFileSync(new URL(name, AKENEO_FIXTURES), "utf8")
    .replaceAll("https://demo.akeneo.com", baseUrl)
    .replace(/http:\/\/localhost(:\d+)?/g, baseUrl);
}

export function jsonFixture(name: string): unknown {
  const parsed: unknown = JSON.parse(readFileSync(new URL(name, AKENEO_FIXTURES), "utf8"));
  return parsed;
}

/** A last page of our own (no `next`), for where the docs show only one page of a list. */
export function lastPage(baseUrl: string, path: string, items: readonly unknown[]): string {
  const self = { href: `${baseUrl}${path}` };
  return JSON.stringify({ _links: { self, first: self }, _embedded: { items } });
}

/**
 * Synthetic payloads, each standing in for a page the official fixtures do not have. They follow the
 * documented shapes and add the awkward cases real PIMs send (`labels: []`, per-channel and
 * non-text label values).
 */
export const SYNTHETIC = {
  /** No family example exists among the fixtures; shape per the families endpoint. */
  families: [
    {
      code: "camcorders",
      attribute_as_label: "name",
      attribute_as_image: null,
      attributes: ["sku", "release_date", "auto_exposure"],
      attribute_requirements: { ecommerce: ["sku"] },
      labels: { en_US: "Camcorders" },
    },
    { code: "empty_family", attribute_as_label: "sku", attributes: [], attribute_requirements: {}, labels: [] },
  ],
  materials: { code: "materials", labels: [], image: null },
  vitra: {
    code: "vitra",
    values: {
      label: [
        { locale: "en_US", channel: null, data: "Vitra" },
        { locale: "fr_FR", channel: "ecommerce", data: "Vitra (per channel)" },
        { locale: "de_DE", channel: null, data: 1950 },
      ],
    },
    created: "2021-01-01T01:23:34+00:00",
    updated: "2021-01-01T01:23:34+00:00",
  },
} as const;
