/**
 * A server on another origin that a misbehaving `next` link points to. It answers every request
 * with an empty list page (valid for both Akeneo and DRF envelopes) and remembers whether the
 * request carried credentials, which must never reach it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface TrapRequest {
  readonly method: string;
  readonly url: string;
  readonly withCredentials: boolean;
}

export interface TrapServer {
  readonly origin: string;
  readonly requests: readonly TrapRequest[];
  close(): Promise<void>;
}

const EMPTY_PAGE = JSON.stringify({ _links: {}, _embedded: { items: [] }, count: 0, next: null, previous: null, results: [] });

export async function startTrapServer(host = "127.0.0.1"): Promise<TrapServer> {
  const requests: TrapRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "", withCredentials: request.headers.authorization !== undefined });
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(EMPTY_PAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
