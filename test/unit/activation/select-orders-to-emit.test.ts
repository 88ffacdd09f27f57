import { describe, expect, it } from "vitest";
import { contentHash } from "../../../src/activation/canonical-json.js";
import { selectOrdersToEmit } from "../../../src/activation/select-orders-to-emit.js";

const order = (id: unknown, status = "WAITING_FOR_SHIPMENT"): Record<string, unknown> => ({ id, data: { status: { code: status } } });

describe("selectOrdersToEmit", () => {
  it("emits every order the first time, in the API's order, across pages", () => {
    const selection = selectOrdersToEmit([[order("a"), order("b")], [order("c")]], new Map(), { all: false });
    expect(selection.emit.map((o) => o.id)).toEqual(["a", "b", "c"]);
    expect(selection.unchanged).toBe(0);
  });

  it("emits only new and changed orders against the last emitted hashes", () => {
    const last = new Map([
      ["a", contentHash(order("a"))],
      ["b", contentHash(order("b"))],
    ]);
    const selection = selectOrdersToEmit([[order("a"), order("b", "SHIPPED"), order("c")]], last, { all: false });
    expect(selection.emit.map((o) => o.id)).toEqual(["b", "c"]);
    expect(selection.unchanged).toBe(1);
  });

  it("does not count a different key order as a change", () => {
    const last = new Map([["a", contentHash({ id: "a", data: { x: 1, y: 2 } })]]);
    expect(selectOrdersToEmit([[{ data: { y: 2, x: 1 }, id: "a" }]], last, { all: false }).emit).toEqual([]);
  });

  it("with all, emits every order whatever the state says", () => {
    const last = new Map([["a", contentHash(order("a"))]]);
    expect(selectOrdersToEmit([[order("a")]], last, { all: true }).emit.map((o) => o.id)).toEqual(["a"]);
  });

  it("reports orders without a usable id by page and position and never emits them", () => {
    const selection = selectOrdersToEmit([[order("a"), { data: {} }], [order(null), order(""), order({ x: 1 }), "text"]], new Map(), { all: false });
    expect(selection.emit.map((o) => o.id)).toEqual(["a"]);
    expect(selection.withoutId).toEqual(["page 1, order 2", "page 2, order 1", "page 2, order 2", "page 2, order 3", "page 2, order 4"]);
  });

  it("takes a numeric id as its text", () => {
    expect(selectOrdersToEmit([[order(42)]], new Map(), { all: false }).emit[0]?.id).toBe("42");
  });

  it("emits an id listed twice in one pull once, with its last content", () => {
    const selection = selectOrdersToEmit([[order("a"), order("b")], [order("a", "SHIPPED")]], new Map(), { all: false });
    expect(selection.emit.map((o) => o.id)).toEqual(["b", "a"]);
    expect(selection.emit[1]?.order).toEqual(order("a", "SHIPPED"));
  });

  it("keeps the API's object itself (unchanged) for the line", () => {
    const original = { id: "a", z: 1, a: 2 };
    expect(selectOrdersToEmit([[original]], new Map(), { all: false }).emit[0]?.order).toBe(original);
  });
});
