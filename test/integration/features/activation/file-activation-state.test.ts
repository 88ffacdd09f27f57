import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { DAY_MS, type RefusedOrder } from "../../../../src/features/activation/activation-state-store.js";
import { createFileActivationState } from "../../../../src/features/activation/file-activation-state.js";
import { test } from "../../../support/fixtures.js";

describe("the file Activation state (no Redis): versions, retention, set-aside orders", () => {
  let dir: string;
  let clock: number;
  const store = () => createFileActivationState(dir, { retention: { ordersMs: 90 * DAY_MS, offersMs: 30 * DAY_MS }, now: () => clock });

  test.beforeEach(async ({ tempDir }) => {
    dir = tempDir;
    clock = Date.parse("2026-01-01T00:00:00Z");
  });

  test("reads entries written before versions existed as version 1", async () => {
    await mkdir(join(dir, "activation", "shop"), { recursive: true });
    await writeFile(join(dir, "activation", "shop", "orders.json"), JSON.stringify([["o1", "h1"]]));
    expect(await store().lastDelivered("shop", ["o1", "o2"])).toEqual(new Map([["o1", { hash: "h1", version: 1 }]]));
  });

  test("forgets orders not listed for the retention, keeps those listed again; offers likewise, one entry per key", async () => {
    const state = store();
    await state.recordDelivered("shop", [
      { id: "o1", hash: "h1", version: 1 },
      { id: "o2", hash: "h2", version: 3 },
    ]);
    clock += 60 * DAY_MS;
    await state.markListed("shop", ["o2"]);
    clock += 31 * DAY_MS;
    await state.markListed("shop", ["o2"]);
    expect(await state.lastDelivered("shop", ["o1", "o2"])).toEqual(new Map([["o2", { hash: "h2", version: 3 }]]));

    await state.recordAcceptedOffers("shop", [
      { key: "A", hash: "a1" },
      { key: "B", hash: "b1" },
    ]);
    await state.recordAcceptedOffers("shop", [{ key: "A", hash: "a2" }]);
    expect(await state.acceptedOffers("shop", ["A", "B"])).toEqual(
      new Map([
        ["A", "a2"],
        ["B", "b1"],
      ]),
    );
    clock += 31 * DAY_MS;
    await state.recordAcceptedOffers("shop", [{ key: "C", hash: "c1" }]);
    expect(await state.acceptedOffers("shop", ["A", "B", "C"])).toEqual(new Map([["C", "c1"]]));
    expect(JSON.parse(await readFile(join(dir, "activation", "shop", "offer-hashes.json"), "utf8"))).toHaveLength(1);
  });

  test("keeps one set-aside entry per order, drops it when cleared or older than the orders' retention", async () => {
    const state = store();
    const refused = (id: string, reason: string): RefusedOrder => ({
      connection: "shop",
      order_id: id,
      delivery_id: `d-${id}`,
      version: 1,
      hash: "h",
      status: 422,
      reason,
      refused_at: new Date(clock).toISOString(),
      order: { id },
    });
    await state.setAside(refused("o1", "first"));
    await state.setAside(refused("o1", "again"));
    await state.setAside(refused("o2", "other"));
    expect((await state.refusedOrders("shop")).map((entry) => [entry.order_id, entry.reason])).toEqual([
      ["o1", "again"],
      ["o2", "other"],
    ]);
    await state.clearRefused("shop", ["o2"]);
    expect((await state.refusedOrders()).map((entry) => entry.order_id)).toEqual(["o1"]);
    clock += 91 * DAY_MS;
    await state.markListed("shop", []);
    expect(await state.refusedOrders()).toEqual([]);
  });
});
