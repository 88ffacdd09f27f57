import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RelayedEvent {
  readonly body: string;
  readonly signature: string | undefined;
  readonly status: number;
}

/**
 * A loopback pipe in front of the worker's receiver: the sim must be told where events go when
 * it starts, and the worker (its port bound as 0) is started after the sim whose URLs its config
 * names. It hands each POST on unchanged, once `to` is set, and keeps what passed.
 */
export async function startEventRelay() {
  let to: string | undefined;
  const passed: RelayedEvent[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = request.headers["x-akeneo-signature-primary"];
      const headers = Object.fromEntries(
        Object.entries(request.headers).flatMap(([name, value]) =>
          name.startsWith("x-") || name === "content-type" ? [[name, String(value)]] : [],
        ),
      );
      void (async () => {
        const answer = to === undefined ? null : await fetch(to, { method: "POST", headers, body });
        const status = answer?.status ?? 503;
        passed.push({ body, signature: typeof signature === "string" ? signature : undefined, status });
        response.writeHead(status, { "content-type": "application/json" });
        response.end(answer === null ? "{}" : await answer.text());
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    passed,
    forwardTo(url: string) {
      to = url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
