import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ActivationStateStore } from "./activation-state-store.js";

/**
 * Without Redis: `{stateDir}/activation/{connection}/orders.json` ([id, hash] pairs) and
 * `offers.json` (hashes), each written to a temporary file and renamed, so a crash never leaves
 * a half-written state.
 */
export function createFileActivationState(stateDir: string): ActivationStateStore {
  const fileOf = (connection: string, name: string): string => join(stateDir, "activation", encodeURIComponent(connection), name);

  async function readJson(path: string): Promise<unknown[]> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`corrupt activation state file ${path}: not JSON`);
    }
    if (!Array.isArray(raw)) throw new Error(`corrupt activation state file ${path}: expected an array`);
    return raw;
  }

  async function writeJson(path: string, value: unknown): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, path);
  }

  async function emittedOrders(connection: string): Promise<Map<string, string>> {
    const path = fileOf(connection, "orders.json");
    const out = new Map<string, string>();
    for (const entry of await readJson(path)) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string") throw new Error(`corrupt activation state file ${path}: expected [id, hash] pairs`);
      out.set(entry[0], entry[1]);
    }
    return out;
  }

  async function acceptedOffers(connection: string): Promise<Set<string>> {
    const path = fileOf(connection, "offers.json");
    const out = new Set<string>();
    for (const entry of await readJson(path)) {
      if (typeof entry !== "string") throw new Error(`corrupt activation state file ${path}: expected hashes`);
      out.add(entry);
    }
    return out;
  }

  return {
    emittedOrders,
    async recordEmitted(connection, orders) {
      if (orders.length === 0) return;
      const current = await emittedOrders(connection);
      for (const order of orders) current.set(order.id, order.hash);
      // Pairs, not an object: an order id such as `__proto__` must survive.
      await writeJson(fileOf(connection, "orders.json"), [...current]);
    },
    acceptedOffers,
    async recordAcceptedOffers(connection, hashes) {
      if (hashes.length === 0) return;
      const current = await acceptedOffers(connection);
      for (const hash of hashes) current.add(hash);
      await writeJson(fileOf(connection, "offers.json"), [...current]);
    },
    async close() {},
  };
}
