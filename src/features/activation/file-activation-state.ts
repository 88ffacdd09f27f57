import { z } from "zod";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ActivationRetention, ActivationStateStore, LastDelivered, RefusedOrder } from "./activation-state-store.js";
import { parseRefusedOrder } from "./refused-order-schema.js";
import { readJsonFile } from "../../stores/state/read-json-file.js";

interface OrderEntry extends LastDelivered {
  /** When a pull last listed the order (or it was delivered), ms. */
  readonly at: number;
}

interface OfferEntry {
  readonly hash: string;
  readonly at: number;
}

/**
 * Without Redis (the CLI alone): `{stateDir}/activation/{connection}/orders.json`
 * (`[id, hash, version, listed-at]` entries; `[id, hash]` from older versions reads as version 1),
 * `offer-hashes.json` (`[key, hash, accepted-at]`), and `{stateDir}/activation/refused.json`.
 * Each is written to a temporary file and renamed, so a crash never leaves a half-written state.
 * Whole files are read: this store serves one operator's CLI, not the worker; the same retention
 * keeps them bounded.
 */
export function createFileActivationState(
  stateDir: string,
  options: { readonly retention: ActivationRetention; readonly now?: () => number },
): ActivationStateStore {
  const now = options.now ?? Date.now;
  const fileOf = (connection: string, name: string): string => join(stateDir, "activation", encodeURIComponent(connection), name);
  const refusedFile = join(stateDir, "activation", "refused.json");

  const readJson = (path: string): Promise<unknown[]> => readJsonFile(path, z.array(z.unknown()), "activation state file", []);

  async function writeJson(path: string, value: unknown): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, path);
  }

  async function readOrders(connection: string): Promise<Map<string, OrderEntry>> {
    const path = fileOf(connection, "orders.json");
    const out = new Map<string, OrderEntry>();
    for (const entry of await readJson(path)) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string")
        throw new Error(`corrupt activation state file ${path}: expected [id, hash, version, time] entries`);
      const version = typeof entry[2] === "number" && Number.isSafeInteger(entry[2]) && entry[2] > 0 ? entry[2] : 1;
      out.set(entry[0], { hash: entry[1], version, at: typeof entry[3] === "number" ? entry[3] : now() });
    }
    return out;
  }

  // Entries, not an object: an order id such as `__proto__` must survive.
  const writeOrders = (connection: string, orders: Map<string, OrderEntry>): Promise<void> =>
    writeJson(
      fileOf(connection, "orders.json"),
      [...orders].map(([id, entry]) => [id, entry.hash, entry.version, entry.at]),
    );

  async function readOffers(connection: string): Promise<Map<string, OfferEntry>> {
    const path = fileOf(connection, "offer-hashes.json");
    const out = new Map<string, OfferEntry>();
    for (const entry of await readJson(path)) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string" || typeof entry[2] !== "number")
        throw new Error(`corrupt activation state file ${path}: expected [key, hash, time] entries`);
      out.set(entry[0], { hash: entry[1], at: entry[2] });
    }
    return out;
  }

  async function readRefused(): Promise<RefusedOrder[]> {
    return (await readJson(refusedFile)).map((entry) => parseRefusedOrder(JSON.stringify(entry), refusedFile));
  }

  const fresh = <T extends { readonly at: number }>(entries: Map<string, T>, maxAgeMs: number): Map<string, T> => {
    const cutoff = now() - maxAgeMs;
    return new Map([...entries].filter(([, entry]) => entry.at >= cutoff));
  };

  return {
    async lastDelivered(connection, ids) {
      const orders = await readOrders(connection);
      const out = new Map<string, LastDelivered>();
      for (const id of ids) {
        const entry = orders.get(id);
        if (entry) out.set(id, { hash: entry.hash, version: entry.version });
      }
      return out;
    },
    async recordDelivered(connection, delivered) {
      if (delivered.length === 0) return;
      const orders = await readOrders(connection);
      const at = now();
      for (const order of delivered) orders.set(order.id, { hash: order.hash, version: order.version, at });
      await writeOrders(connection, orders);
    },
    async markListed(connection, ids) {
      const orders = await readOrders(connection);
      const at = now();
      for (const id of ids) {
        const entry = orders.get(id);
        if (entry) orders.set(id, { ...entry, at });
      }
      await writeOrders(connection, fresh(orders, options.retention.ordersMs));
      const cutoff = new Date(now() - options.retention.ordersMs).toISOString();
      const refused = await readRefused();
      const kept = refused.filter((entry) => entry.refused_at >= cutoff);
      if (kept.length !== refused.length) await writeJson(refusedFile, kept);
    },
    async acceptedOffers(connection, keys) {
      const offers = await readOffers(connection);
      const out = new Map<string, string>();
      for (const key of keys) {
        const entry = offers.get(key);
        if (entry) out.set(key, entry.hash);
      }
      return out;
    },
    async recordAcceptedOffers(connection, accepted) {
      if (accepted.length === 0) return;
      const offers = await readOffers(connection);
      const at = now();
      for (const offer of accepted) offers.set(offer.key, { hash: offer.hash, at });
      await writeJson(
        fileOf(connection, "offer-hashes.json"),
        [...fresh(offers, options.retention.offersMs)].map(([key, entry]) => [key, entry.hash, entry.at]),
      );
    },
    async setAside(order) {
      const refused = (await readRefused()).filter(
        (entry) => !(entry.connection === order.connection && entry.order_id === order.order_id),
      );
      await writeJson(refusedFile, [...refused, order]);
    },
    async refusedOrders(connection) {
      const all = (await readRefused()).sort((a, b) => a.refused_at.localeCompare(b.refused_at));
      return connection === undefined ? all : all.filter((entry) => entry.connection === connection);
    },
    async clearRefused(connection, ids) {
      if (ids.length === 0) return;
      const drop = new Set(ids);
      const refused = await readRefused();
      const kept = refused.filter((entry) => !(entry.connection === connection && drop.has(entry.order_id)));
      if (kept.length !== refused.length) await writeJson(refusedFile, kept);
    },
    async close() {},
  };
}
