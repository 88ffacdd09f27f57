import { constants } from "node:http2";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { HTTP2_CONSTANTS_UNDICI_READS } from "../../../scripts/undici-http2-on-demand.js";

const clientH2 = createRequire(import.meta.url).resolve("undici/lib/dispatcher/client-h2.js");

describe("undici's HTTP/2 client in the bundle: node:http2 on demand", () => {
  it("gives the constants Node's http2 has", () => {
    for (const [name, value] of Object.entries(HTTP2_CONSTANTS_UNDICI_READS))
      expect([name, constants[name as keyof typeof constants]]).toEqual([name, value]);
  });

  // A new undici that reads another constant, or more of http2 than connect, needs it added here.
  it("gives every constant undici's HTTP/2 client reads, and connect, the only other part of http2 it uses", async () => {
    const source = await readFile(clientH2, "utf8");
    const read = /constants:\s*\{([^}]*)\}\s*\}\s*=\s*http2/.exec(source)?.[1];
    expect(read).toBeDefined();
    const names = (read ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "");
    expect(names.sort()).toEqual(Object.keys(HTTP2_CONSTANTS_UNDICI_READS).sort());
    expect([...new Set(source.match(/\bhttp2\.\w+/g))]).toEqual(["http2.connect"]);
    expect(source.match(/require\((['"])(node:)?http2\1\)/g)).toEqual(["require('node:http2')"]);
  });
});
