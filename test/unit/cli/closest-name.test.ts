import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "../../../src/cli/closest-name.js";

const FLAGS = ["config", "project", "collection", "option", "since", "limit", "json", "json-keys", "help"];

describe("closestName", () => {
  it.each([
    ["limt", "limit"],
    ["lmiit", "limit"],
    ["jsno", "json"],
    ["projcet", "project"],
    ["colection", "collection"],
    ["conf", "config"],
    ["JSON", "json"],
    ["json-key", "json-keys"],
  ])("takes %s for %s", (typed, meant) => {
    expect(closestName(typed, FLAGS)).toBe(meant);
  });

  it.each([["verbose"], ["x"], ["all"], ["id"]])("suggests nothing for %s, close to no candidate", (typed) => {
    expect(closestName(typed, FLAGS)).toBeUndefined();
  });

  it("suggests nothing when two candidates are equally close", () => {
    expect(closestName("held", ["help", "hold"])).toBeUndefined();
  });

  it("finds a command by its beginning only when one command begins so", () => {
    const commands = ["sync", "plan", "history", "held", "jobs", "sim"];
    expect(closestName("hist", commands)).toBe("history");
    expect(closestName("histroy", commands)).toBe("history");
    expect(closestName("hi", commands)).toBeUndefined();
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and neighbouring swaps as one edit each", () => {
    expect(editDistance("limit", "limit")).toBe(0);
    expect(editDistance("limt", "limit")).toBe(1);
    expect(editDistance("limitt", "limit")).toBe(1);
    expect(editDistance("limot", "limit")).toBe(1);
    expect(editDistance("lmiit", "limit")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
  });
});
