/**
 * A bundler plugin for scripts/bundle-cli.ts: undici's HTTP/2 client (`lib/dispatcher/client-h2.js`)
 * requires `node:http2` as it loads, to read ten constants, although it connects over HTTP/2 only
 * for a dispatcher made with `allowH2`, which pim-sync never makes. Every Agent loads it, so every
 * command that calls an upstream compiled Node's HTTP/2 modules and started nghttp2 before its first
 * request (docs/cli.md, "Start time"). In the bundle that module gets instead the constants it
 * reads, and `node:http2` itself at its first HTTP/2 connection, were there one.
 */
import type { Plugin } from "rolldown";

/**
 * What client-h2.js reads of `http2.constants` as it loads: HTTP/2's pseudo-headers and the two
 * header names (RFC 9113, 8.3) and nghttp2's REFUSED_STREAM and CANCEL error codes (RFC 9113, 7).
 * Checked against Node's own (test/unit/scripts/undici-http2-on-demand.test.ts).
 */
export const HTTP2_CONSTANTS_UNDICI_READS = {
  HTTP2_HEADER_AUTHORITY: ":authority",
  HTTP2_HEADER_METHOD: ":method",
  HTTP2_HEADER_PATH: ":path",
  HTTP2_HEADER_SCHEME: ":scheme",
  HTTP2_HEADER_CONTENT_LENGTH: "content-length",
  HTTP2_HEADER_EXPECT: "expect",
  HTTP2_HEADER_STATUS: ":status",
  HTTP2_HEADER_PROTOCOL: ":protocol",
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
} as const;

const ON_DEMAND_ID = "\0undici-http2-on-demand";
const UNDICI_H2_CLIENT = /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/;

/** The module client-h2.js gets for `require('node:http2')`: the constants, and `connect` from Node's on first use. */
const ON_DEMAND_SOURCE = `module.exports = {
  constants: ${JSON.stringify(HTTP2_CONSTANTS_UNDICI_READS)},
  connect: (...args) => require("node:http2").connect(...args),
};
`;

export const undiciHttp2OnDemand: Plugin = {
  name: "undici-http2-on-demand",
  resolveId(source, importer) {
    return source === "node:http2" && importer !== undefined && UNDICI_H2_CLIENT.test(importer) ? ON_DEMAND_ID : null;
  },
  load(id) {
    return id === ON_DEMAND_ID ? { code: ON_DEMAND_SOURCE, moduleType: "js" } : null;
  },
};
