import { describe, expect, it } from "vitest";
import { createReleaseStack, ReleaseFailed } from "../../../src/app/release-stack.js";
import { silentLogger } from "../../support/silent-logger.js";

describe("the app's release stack", () => {
  it("releases the last acquired first, each once, even when called twice", async () => {
    const released: string[] = [];
    const stack = createReleaseStack(silentLogger());
    for (const name of ["redis", "runtime", "lock"]) stack.push(name, () => void released.push(name));

    await Promise.all([stack.releaseAll(), stack.releaseAll()]);
    await stack.releaseAll();

    expect(released).toEqual(["lock", "runtime", "redis"]);
  });

  it("goes on past a release that fails, then throws the failures together", async () => {
    const released: string[] = [];
    const stack = createReleaseStack(silentLogger());
    stack.push("redis", () => void released.push("redis"));
    stack.push("lock", () => Promise.reject(new Error("lock release refused")));
    stack.push("runtime", () => void released.push("runtime"));

    const failure = await stack.releaseAll().then(
      () => null,
      (error: unknown) => error,
    );

    expect(released).toEqual(["runtime", "redis"]);
    expect(failure).toBeInstanceOf(ReleaseFailed);
    expect((failure as ReleaseFailed).message).toContain("lock");
    expect((failure as ReleaseFailed).errors.map((error: Error) => error.message)).toEqual(["lock release refused"]);
  });

  it("releases at once what is acquired after the release began, and refuses it to its caller", async () => {
    const released: string[] = [];
    const stack = createReleaseStack(silentLogger());
    await stack.releaseAll();

    expect(() => stack.push("late connection", () => void released.push("late connection"))).toThrow(/after the app began stopping/);
    await expect.poll(() => released).toEqual(["late connection"]);
  });
});
