import { describe, expect, it } from "vitest";
import { LazyAbortController } from "../../../../src/jobs/worker/lazy-abort-controller.js";

describe("LazyAbortController", () => {
  it("aborted before its signal is read: the signal is made aborted, with the reason", () => {
    const controller = new LazyAbortController();
    const reason = new Error("ran longer than 10 ms");
    controller.abort(reason);
    expect(controller.aborted).toBe(true);
    expect(controller.reason).toBe(reason);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it("read before it is aborted: the signal is aborted as a plain controller's, its listeners told", () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    const heard: unknown[] = [];
    signal.addEventListener("abort", () => heard.push(signal.reason));
    expect(signal.aborted).toBe(false);
    const reason = new Error("lost the project lock");
    controller.abort(reason);
    expect(heard).toEqual([reason]);
    expect(controller.signal).toBe(signal);
  });

  it("keeps the first reason, as AbortController does", () => {
    const controller = new LazyAbortController();
    const first = new Error("first");
    controller.abort(first);
    controller.abort(new Error("second"));
    expect(controller.reason).toBe(first);
    expect(controller.signal.reason).toBe(first);
  });

  it("is not aborted until told", () => {
    const controller = new LazyAbortController();
    expect(controller.aborted).toBe(false);
    expect(controller.reason).toBeUndefined();
    expect(controller.signal.aborted).toBe(false);
  });
});
