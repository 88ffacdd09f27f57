import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface ScriptedReply {
  readonly status?: number;
  readonly json: unknown;
}

/**
 * A loopback HTTP server whose answers a test scripts per request (`reply(url, origin)`), and
 * which records every request with its headers, so a test can check what reached it.
 */
export async function startScriptedServer(reply: (url: URL, origin: string) => ScriptedReply | Promise<ScriptedReply>) {
  const requests: ScriptedRequest[] = [];
  let origin = "";
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    request.resume();
    void Promise.resolve(reply(new URL(request.url ?? "/", origin), origin)).then((answer) => {
      response.writeHead(answer.status ?? 200, { "content-type": "application/json" });
      response.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;
