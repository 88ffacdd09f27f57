import { describe, expect, it } from "vitest";
import { createLoginThrottle } from "../../../../src/server/auth/login-throttle.js";

describe("createLoginThrottle", () => {
  it("holds a key back once it has max_failures failures in the window, and no other key", async () => {
    const throttle = createLoginThrottle({ max_failures: 3, window_ms: 60_000 });
    for (let i = 0; i < 2; i += 1) await throttle.failed(["address:a", "user:ada"]);
    expect(await throttle.waitMs(["address:a", "user:ada"])).toBeNull();
    await throttle.failed(["address:a"]);
    const wait = await throttle.waitMs(["address:b", "user:ada", "address:a"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await throttle.waitMs(["address:b", "user:ada"])).toBeNull();
    await throttle.failed(["user:ada"]);
    expect(await throttle.waitMs(["address:b", "user:ada"])).not.toBeNull();
  });

  it("forgets a key's failures when its window ends", async () => {
    const throttle = createLoginThrottle({ max_failures: 1, window_ms: 1_000 });
    await throttle.failed(["address:a"]);
    expect(await throttle.waitMs(["address:a"])).not.toBeNull();
    await expect.poll(() => throttle.waitMs(["address:a"]), { timeout: 10_000, interval: 100 }).toBeNull();
  });
});
