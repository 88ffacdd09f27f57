/**
 * The node:http server under both simulators: reads the whole body, hands a SimRequest to the
 * simulator, writes the reply (or drops the socket). It knows nothing of routes or recording.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import type { SimReply, SimRequest } from "./sim-request.js";

/** Far above any legitimate body (100 NDJSON lines of up to 1 MB each fit); beyond it the socket is dropped. */
const MAX_BODY_BYTES = 128 * 1024 * 1024;

export interface HttpServerOptions {
  readonly host: string;
  readonly port: number;
  handle(request: SimRequest): Promise<SimReply>;
}

export interface HttpServerHandle {
  readonly url: string;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const server = createServer((incoming, response) => {
    // Nothing may escape as an unhandled rejection: a bad Host header or header value just ends the socket.
    serve(incoming, response, options).catch(() => incoming.socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        // Keep-alive sockets and hanging requests would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function serve(incoming: IncomingMessage, response: ServerResponse, options: HttpServerOptions): Promise<void> {
  const body = await readBody(incoming);
  if (body === undefined) {
    incoming.socket.destroy();
    return;
  }
  const hostHeader = incoming.headers.host ?? `${options.host}:${options.port}`;
  const url = new URL(incoming.url ?? "/", `http://${hostHeader}`);
  const request: SimRequest = {
    method: (incoming.method ?? "GET").toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
    body,
    origin: `http://${hostHeader}`,
    targetBytes: Buffer.byteLength(incoming.url ?? "/"),
  };
  let reply: SimReply;
  try {
    reply = await options.handle(request);
  } catch (error) {
    // A simulator bug must be loud in the test that hit it, not a hung request.
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    reply = { kind: "reply", status: 500, headers: { "content-type": "text/plain" }, body: `simulator error: ${message}` };
  }
  if (reply.kind === "drop") {
    incoming.socket.destroy();
    return;
  }
  if (response.destroyed) return;
  if (reply.status === 204 || reply.status === 304) {
    // These statuses carry no body and, per RFC 9110, no Content-Length either.
    response.writeHead(reply.status, reply.headers);
    response.end();
    return;
  }
  response.writeHead(reply.status, { ...reply.headers, "content-length": String(Buffer.byteLength(reply.body)) });
  response.end(reply.body);
}

function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    incoming.on("end", () => resolve(Buffer.concat(chunks)));
    incoming.on("error", () => resolve(undefined));
  });
}
