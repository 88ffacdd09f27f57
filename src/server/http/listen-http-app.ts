import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";

export interface HttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `app` listening; `close` ends open connections too (keep-alive ones would hold it). */
export async function listenHttpApp(app: FastifyInstance, at: { readonly host: string; readonly port: number }): Promise<HttpServer> {
  await app.listen({ host: at.host, port: at.port });
  const address = app.server.address() as AddressInfo;
  return {
    url: `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`,
    async close() {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}
