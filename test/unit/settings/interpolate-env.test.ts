import { describe, expect, it } from "vitest";
import { formatPath, interpolateEnv } from "../../../src/settings/interpolate-env.js";

describe("interpolateEnv", () => {
  it("replaces ${VAR} in strings anywhere in the document", () => {
    const document = { a: "${A}", nested: { list: ["x-${B}-y", "${A}${B}"] } };
    const { value, missing } = interpolateEnv(document, { A: "one", B: "two" });
    expect(value).toEqual({ a: "one", nested: { list: ["x-two-y", "onetwo"] } });
    expect(missing).toEqual([]);
  });

  it("does not change the input document", () => {
    const document = { a: "${A}", list: ["${A}"] };
    interpolateEnv(document, { A: "one" });
    expect(document).toEqual({ a: "${A}", list: ["${A}"] });
  });

  it("leaves numbers, booleans and null alone", () => {
    const document = { n: 4, b: true, z: null, list: [1, false, null] };
    expect(interpolateEnv(document, {}).value).toEqual(document);
  });

  it("replaces with an empty value when the variable is set to the empty string (set, not missing)", () => {
    const { value, missing } = interpolateEnv({ a: "pre${E}post" }, { E: "" });
    expect(value).toEqual({ a: "prepost" });
    expect(missing).toEqual([]);
  });

  it("reports every unset variable with the key path that uses it", () => {
    const document = { projects: [{ pim: { secret: "${PIM_SECRET}", user: "${U1}-${U2}" } }], top: "${TOP}" };
    const { value, missing } = interpolateEnv(document, { U2: "ok" });
    expect(missing).toEqual([
      "projects[0].pim.secret: environment variable PIM_SECRET is not set",
      "projects[0].pim.user: environment variable U1 is not set",
      "top: environment variable TOP is not set",
    ]);
    expect(value).toEqual({ projects: [{ pim: { secret: "", user: "-ok" } }], top: "" });
  });

  it("names the keys an unset variable left short, once each", () => {
    const { unsetPaths } = interpolateEnv({ a: "${X}-${Y}", b: ["${X}"], c: "${SET}" }, { SET: "x" });
    expect(unsetPaths).toEqual(["a", "b[0]"]);
  });

  it("names array positions in the path", () => {
    const { missing } = interpolateEnv({ projects: [{}, { channels: ["a", "${CH}"] }] }, {});
    expect(missing).toEqual(["projects[1].channels[1]: environment variable CH is not set"]);
  });

  it("names (root) for a bare string document", () => {
    expect(interpolateEnv("${X}", {}).missing).toEqual(["(root): environment variable X is not set"]);
  });

  it("keeps $${VAR} as a literal ${VAR}, whether or not VAR is set", () => {
    expect(interpolateEnv({ a: "pa$${X}ss" }, { X: "nope" })).toEqual({ value: { a: "pa${X}ss" }, missing: [], unsetPaths: [] });
    expect(interpolateEnv({ a: "$${UNSET}" }, {})).toEqual({ value: { a: "${UNSET}" }, missing: [], unsetPaths: [] });
  });

  it("mixes escapes and replacements in one string", () => {
    expect(interpolateEnv("$${A} and ${A}", { A: "x" }).value).toBe("${A} and x");
  });

  it("does not interpolate again inside a replacement", () => {
    expect(interpolateEnv("${A}", { A: "${B}", B: "deep" }).value).toBe("${B}");
  });

  it("leaves things that only look like references alone", () => {
    const { value, missing } = interpolateEnv(["$VAR", "${1X}", "${}", "${A-B}", "price: $5", "{A}"], {});
    expect(value).toEqual(["$VAR", "${1X}", "${}", "${A-B}", "price: $5", "{A}"]);
    expect(missing).toEqual([]);
  });

  it("takes ${VAR:-default}'s default when VAR is unset or empty, without reporting it missing", () => {
    const document = { url: "${URL:-redis://redis:6379/0}", prefix: "${PREFIX:-pim-sync}", empty: "a${NONE:-}b" };
    expect(interpolateEnv(document, {})).toEqual({
      value: { url: "redis://redis:6379/0", prefix: "pim-sync", empty: "ab" },
      missing: [],
      unsetPaths: [],
    });
    expect(interpolateEnv(document, { URL: "", PREFIX: "" }).value).toEqual({
      url: "redis://redis:6379/0",
      prefix: "pim-sync",
      empty: "ab",
    });
  });

  it("takes the variable's value over the default when it is set", () => {
    expect(interpolateEnv("${URL:-redis://redis:6379}", { URL: "redis://10.0.0.5:6380" }).value).toBe("redis://10.0.0.5:6380");
  });

  it("takes a default as written, and keeps $${VAR:-x} literal", () => {
    expect(interpolateEnv("${A:-$B and :- here}", { B: "no" }).value).toBe("$B and :- here");
    expect(interpolateEnv("$${A:-x}", { A: "set" }).value).toBe("${A:-x}");
  });

  it("uses the default rather than the unset placeholder where a variable may be unset", () => {
    const { value } = interpolateEnv({ token: "${T:-fallback-token-0123}" }, {}, { mayBeUnset: () => true });
    expect(value).toEqual({ token: "fallback-token-0123" });
  });

  it("does not interpolate keys", () => {
    expect(interpolateEnv({ "${K}": "v" }, { K: "key" }).value).toEqual({ "${K}": "v" });
  });

  it("is case-sensitive about names", () => {
    const { value, missing } = interpolateEnv("${path}", { PATH: "/bin" });
    expect(value).toBe("");
    expect(missing).toEqual(["(root): environment variable path is not set"]);
  });
});

describe("formatPath", () => {
  it.each([
    [[], "(root)"],
    [["state_dir"], "state_dir"],
    [["projects", 0, "pim", "url"], "projects[0].pim.url"],
    [["projects", 2, "channels", 1], "projects[2].channels[1]"],
    [[0, "a"], "[0].a"],
  ] as const)("%j → %s", (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});
