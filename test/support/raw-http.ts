import { request } from "node:http";

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export interface RawCall {
  readonly method?: string;
  /** Sent exactly as written: no dot-segment removal, no re-encoding (fetch would normalise it). */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as it is, as `application/json` (a body JSON.stringify could not write, or one it would change); instead of `body`. */
  readonly text?: string;
  /** The client's source address (any 127.x.y.z on loopback), to appear as another client. */
  readonly localAddress?: string;
}

/** One HTTP/1.1 request to `baseUrl` over node:http, on a fresh connection. */
export function rawRequest(baseUrl: string, call: RawCall): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const body = call.text ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: call.method ?? "GET",
        path: call.path,
        agent: false,
        ...(call.localAddress === undefined ? {} : { localAddress: call.localAddress }),
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
          ...call.headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** `Authorization: Basic ...` for a name and password. */
export function basicAuth(name: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${name}:${password}`).toString("base64")}` };
}
