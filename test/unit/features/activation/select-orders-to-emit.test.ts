import { describe, expect, it } from "vitest";
import { contentHash } from "../../../../src/core/json/canonical-json.js";
import { deliveryIdOf } from "../../../../src/features/activation/delivery-id.js";
import { listOrders, selectOrdersToEmit } from "../../../../src/features/activation/select-orders-to-emit.js";

const order = (id: unknown, status = "WAITING_FOR_SHIPMENT"): Record<string, unknown> => ({ id, data: { status: { code: status } } });
const select = (pages: unknown[][], last: Map<string, { hash: string; version: number }>, all = false) =>
  selectOrdersToEmit("shop", listOrders(pages).orders, last, { all });

describe("listOrders and selectOrdersToEmit", () => {
  it("emits every order the first time, in the API's order, across pages, as version 1", () => {
    const selection = select([[order("a"), order("b")], [order("c")]], new Map());
    expect(selection.emit.map((o) => [o.id, o.version])).toEqual([
      ["a", 1],
      ["b", 1],
      ["c", 1],
    ]);
    expect(selection.unchanged).toBe(0);
  });

  it("emits only new and changed orders against the last delivered versions; a change is the next version", () => {
    const last = new Map([
      ["a", { hash: contentHash(order("a")), version: 1 }],
      ["b", { hash: contentHash(order("b")), version: 4 }],
    ]);
    const selection = select([[order("a"), order("b", "SHIPPED"), order("c")]], last);
    expect(selection.emit.map((o) => [o.id, o.version])).toEqual([
      ["b", 5],
      ["c", 1],
    ]);
    expect(selection.unchanged).toBe(1);
  });

  it("gives a version that returns to an earlier content a new delivery id; the same version keeps its id", () => {
    const a = order("a");
    const first = select([[a]], new Map()).emit[0];
    const back = select([[a]], new Map([["a", { hash: contentHash(order("a", "SHIPPED")), version: 2 }]])).emit[0];
    expect(first?.deliveryId).toBe(deliveryIdOf("shop", "a", 1, contentHash(a)));
    expect(back?.version).toBe(3);
    expect(back?.deliveryId).not.toBe(first?.deliveryId);
    expect(select([[a]], new Map()).emit[0]?.deliveryId).toBe(first?.deliveryId);
  });

  it("does not count a different key order as a change", () => {
    const last = new Map([["a", { hash: contentHash({ id: "a", data: { x: 1, y: 2 } }), version: 1 }]]);
    expect(select([[{ data: { y: 2, x: 1 }, id: "a" }]], last).emit).toEqual([]);
  });

  it("with all, emits every order whatever the state says, an unchanged one under its delivered version", () => {
    const last = new Map([["a", { hash: contentHash(order("a")), version: 3 }]]);
    expect(select([[order("a")]], last, true).emit.map((o) => [o.id, o.version])).toEqual([["a", 3]]);
  });

  it("reports orders without a usable id by page and position and never emits them", () => {
    const listed = listOrders([
      [order("a"), { data: {} }],
      [order(null), order(""), order({ x: 1 }), "text"],
    ]);
    expect(listed.orders.map((o) => o.id)).toEqual(["a"]);
    expect(listed.withoutId).toEqual(["page 1, order 2", "page 2, order 1", "page 2, order 2", "page 2, order 3", "page 2, order 4"]);
  });

  it("takes a numeric id as its text", () => {
    expect(select([[order(42)]], new Map()).emit[0]?.id).toBe("42");
  });

  it("emits an id listed twice in one pull once, with its last content", () => {
    const selection = select([[order("a"), order("b")], [order("a", "SHIPPED")]], new Map());
    expect(selection.emit.map((o) => o.id)).toEqual(["b", "a"]);
    expect(selection.emit[1]?.order).toEqual(order("a", "SHIPPED"));
  });

  it("keeps the API's object itself (unchanged) for the line", () => {
    const original = { id: "a", z: 1, a: 2 };
    expect(select([[original]], new Map()).emit[0]?.order).toBe(original);
  });
});
