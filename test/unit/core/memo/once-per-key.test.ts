import { describe, expect, it } from "vitest";
import { oncePerKey } from "../../../../src/core/memo/once-per-key.js";

describe("oncePerKey", () => {
  it("works each key out once, null and undefined answers too, and keeps keys apart", () => {
    const asked: string[] = [];
    const gap = oncePerKey(
      (pattern: string, tz: string | undefined) => `${pattern}\u0000${tz ?? ""}`,
      (pattern: string, tz: string | undefined) => {
        asked.push(`${pattern}|${tz ?? ""}`);
        return pattern === "never" ? null : pattern.length;
      },
    );
    expect([
      gap("* * * * *", "UTC"),
      gap("* * * * *", "UTC"),
      gap("* * * * *", undefined),
      gap("never", "UTC"),
      gap("never", "UTC"),
    ]).toEqual([9, 9, 9, null, null]);
    expect(asked).toEqual(["* * * * *|UTC", "* * * * *|", "never|UTC"]);
  });
});
