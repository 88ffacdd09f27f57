/** Small HTTP helpers for the simulator tests; global fetch is the client on purpose. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { loadSimCatalog } from "../../../sim/catalog/catalog-file.js";
import type { SimCatalog } from "../../../sim/catalog/catalog-file.js";
import { defaultCatalogPath } from "../../../sim/start-simulators.js";

const here = dirname(fileURLToPath(import.meta.url));

export function sampleCatalog(): Promise<SimCatalog> {
  return loadSimCatalog(defaultCatalogPath());
}

/**
 * An official payload from the copy in the repository (`test/fixtures/akeneo/`, with the PIM CE
 * end-to-end samples in its `from-pim-community-dev/`), as text (NDJSON) or parsed.
 */
const AKENEO_FIXTURES = join(here, "..", "..", "fixtures", "akeneo");

export function akeneoFixtureText(name: string): string {
  const direct = join(AKENEO_FIXTURES, name);
  return readFileSync(existsSync(direct) ? direct : join(AKENEO_FIXTURES, "from-pim-community-dev", name), "utf8");
}

export function akeneoFixture(name: string): unknown {
  return JSON.parse(akeneoFixtureText(name));
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;
}

export interface TokenBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: null;
}

export async function requestPimToken(
  baseUrl: string,
  body: Record<string, string> = { grant_type: "password", username: "sim-user", password: "sim-password" },
  authorization = basic("sim-client", "sim-secret"),
): Promise<Response> {
  return fetch(`${baseUrl}/api/oauth/v1/token`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export async function pimToken(baseUrl: string): Promise<TokenBody> {
  const response = await requestPimToken(baseUrl);
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as TokenBody;
}

export async function getJson(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

export function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== "object") throw new Error(`not an object: ${JSON.stringify(value)}`);
  return Object.keys(value).sort();
}

/** Follows `_links.next.href` from a first URL and returns every page body. */
export async function walkPages(firstUrl: string, token: string): Promise<PageBody[]> {
  const pages: PageBody[] = [];
  let next: string | undefined = firstUrl;
  while (next !== undefined) {
    const { status, body } = await getJson(next, token);
    if (status !== 200) throw new Error(`GET ${next} answered ${status}`);
    const page = body as PageBody;
    pages.push(page);
    next = page._links.next?.href;
  }
  return pages;
}

export interface PageBody {
  _links: { self: { href: string }; first: { href: string }; previous?: { href: string }; next?: { href: string } };
  current_page?: number;
  items_count?: number;
  _embedded: { items: ({ code: string } & Record<string, unknown>)[] };
}
