import { describe, expect, it } from "vitest";
import { createKeyspace } from "../../../../src/infra/redis/keyspace.js";

/** Redis' hash tag rule: the part between the first `{` and the next `}`, when not empty. */
function hashTagOf(key: string): string | null {
  const open = key.indexOf("{");
  if (open < 0) return null;
  const close = key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : null;
}

describe("keyspace", () => {
  it("on one server, names every key and queue exactly as the versions before cluster support did", () => {
    const keys = createKeyspace("pim-sync", { cluster: false });
    expect(keys.projectQueue(67)).toBe("project-67");
    expect(keys.activationQueue).toBe("activation");
    expect(keys.projectKey(67, "state", "c", "color")).toBe("pim-sync:state:67:c:color");
    expect(keys.projectKey(67, "state", "known")).toBe("pim-sync:state:67:known");
    expect(keys.projectKey(67, "state", "a", "color")).toBe("pim-sync:state:67:a:color");
    expect(keys.projectKey(67, "lock:project")).toBe("pim-sync:lock:project:67");
    expect(keys.projectKey(67, "lock:enqueue-sync")).toBe("pim-sync:lock:enqueue-sync:67");
    expect(keys.projectKey(67, "sync-follow-up")).toBe("pim-sync:sync-follow-up:67");
    expect(keys.projectKey(67, "full-sync", "12")).toBe("pim-sync:full-sync:67:12");
    expect(keys.projectKey(67, "idempotency", "ab12")).toBe("pim-sync:idempotency:67:ab12");
    expect(keys.activationKey("idempotency", "activation.offers.put", "ab12")).toBe(
      "pim-sync:idempotency:activation:activation.offers.put:ab12",
    );
    expect(keys.activationStateKey("shop-1", "orders")).toBe("pim-sync:activation:shop-1:orders");
    expect(keys.activationStateKey("shop-1", "offers")).toBe("pim-sync:activation:shop-1:offers");
    expect(keys.globalKey("lock", "schedules")).toBe("pim-sync:lock:schedules");
    expect(keys.globalKey("lock", "activation-schedules")).toBe("pim-sync:lock:activation-schedules");
    // No hash tag anywhere: a single server needs none.
    expect(hashTagOf(keys.projectKey(67, "state", "known"))).toBeNull();
  });

  it("on a cluster, a project's queue (so every BullMQ key of it) and its own keys share one hash tag", () => {
    const keys = createKeyspace("tenant.a-1", { cluster: true });
    expect(keys.projectQueue(67)).toBe("{project-67}");
    // BullMQ's keys are `${prefix}:${queue}:...`.
    const bullKey = `tenant.a-1:${keys.projectQueue(67)}:wait`;
    const own = [
      keys.projectKey(67, "state", "c", "color"),
      keys.projectKey(67, "state", "known"),
      keys.projectKey(67, "state", "a", "color"),
      keys.projectKey(67, "lock:project"),
      keys.projectKey(67, "lock:enqueue-sync"),
      keys.projectKey(67, "sync-follow-up"),
      keys.projectKey(67, "full-sync", "12"),
      keys.projectKey(67, "idempotency", "ab12"),
    ];
    expect(own[1]).toBe("tenant.a-1:state:{project-67}:known");
    for (const key of [bullKey, ...own]) expect(hashTagOf(key)).toBe("project-67");
    // Another project: another tag, so another slot (projects spread over the shards).
    expect(hashTagOf(keys.projectKey(99, "state", "known"))).toBe("project-99");
  });

  it("on a cluster, the Activation queue and its keys share the tag {activation}; global keys carry none", () => {
    const keys = createKeyspace("pim-sync", { cluster: true });
    expect(keys.activationQueue).toBe("{activation}");
    expect(hashTagOf(`pim-sync:${keys.activationQueue}:wait`)).toBe("activation");
    expect(hashTagOf(keys.activationKey("idempotency", "activation.offers.put", "ab12"))).toBe("activation");
    expect(keys.activationStateKey("shop-1", "orders")).toBe("pim-sync:activation:{activation}:shop-1:orders");
    expect(hashTagOf(keys.activationStateKey("shop-1", "offers"))).toBe("activation");
    expect(keys.globalKey("lock", "schedules")).toBe("pim-sync:lock:schedules");
  });
});
