import { describe, expect, it } from "vitest";
import { BatchBook } from "../../../../src/features/add-options/batch-book.js";
import { ReliedOnRefusedRequest } from "../../../../src/features/add-options/relied-on-refused-request.js";

describe("BatchBook: each request's fate in a batch", () => {
  it("keeps the first reasons a request is rejected for", () => {
    const book = new BatchBook();
    book.reject("1", ["not allowlisted"]);
    book.reject("1", ["refused by the service"]);
    expect(book.rejected.get("1")).toEqual(["not allowlisted"]);
    expect(book.isRejected("1")).toBe(true);
    expect(book.isRejected("2")).toBe(false);
  });

  it("lists each collection's share in order, and drops what was not sent (names compared case-insensitively) from that collection only", () => {
    const book = new BatchBook();
    book.recordCollection("1", { collection: "color", added: ["Teal", "red"], skipped: ["blue"] });
    book.recordCollection("1", { collection: "color-fr", added: ["teal"], skipped: [] });
    book.dropUnsent("1", "color", ["teal"]);
    expect(book.collections.get("1")).toEqual([
      { collection: "color", added: ["red"], skipped: ["blue"] },
      { collection: "color-fr", added: ["teal"], skipped: [] },
    ]);
  });

  it("leaves undecided a request that relied on a refused one, unless it is rejected itself", () => {
    const book = new BatchBook();
    book.relyOn("2", ["1"]);
    book.relyOn("3", ["1"]);
    book.relyOn("4", ["5"]);
    book.reject("1", ["refused"]);
    book.reject("3", ["refused too"]);
    book.decideReliances();
    expect([...book.undecided.keys()]).toEqual(["2"]);
    expect(book.undecided.get("2")).toBeInstanceOf(ReliedOnRefusedRequest);
    expect(book.isSettled("2")).toBe(true);
    expect(book.isSettled("4")).toBe(false);
  });
});
