import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback upstream that answers every request with an error whose body echoes the request:
 * its credential-carrying headers and its body, raw, base64'd and URL-encoded (what many proxies
 * and frameworks do on 400/500). The lines are rotated from one request to the next, so each
 * spelling in turn comes first (clients keep only the start of an error body).
 */
export async function startEchoServer(statusOf: (requestNumber: number) => number) {
  let count = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      count += 1;
      const body = Buffer.concat(chunks).toString("utf8");
      const lines = echoLines(request, body);
      const shift = count % lines.length;
      const rotated = [...lines.slice(shift), ...lines.slice(0, shift)];
      response.writeHead(statusOf(count), { "content-type": "text/plain" });
      response.end(`echo of ${request.method ?? "?"} ${request.url ?? "?"}\n${rotated.join("\n")}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requestCount: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type EchoServer = Awaited<ReturnType<typeof startEchoServer>>;

function echoLines(request: IncomingMessage, body: string): string[] {
  const credentialHeaders = Object.entries(request.headers)
    .filter(([name]) => name === "authorization" || name.includes("token") || name.includes("connection_id"))
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join("; ");
  const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");
  return [
    `headers: ${credentialHeaders}`,
    `body: ${body}`,
    `headers-base64: ${b64(credentialHeaders)}`,
    `body-base64: ${b64(body)}`,
    `headers-url: ${encodeURIComponent(credentialHeaders)}`,
    `body-url: ${encodeURIComponent(body)}`,
    `body-form: ${new URLSearchParams({ echo: body }).toString()}`,
  ];
}
