import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { decodeJsonTraceRequest } from "./otlp-json.js";
import { decodeTraceRequest } from "./otlp-protobuf.js";
import type { ReceivedSpan } from "./otlp-span.js";

/** One export as it arrived: its encoding, its raw text (for leak checks) and its spans. */
export interface ReceivedExport {
  readonly path: string;
  readonly contentType: string;
  /** The body as text (protobuf read as latin1: every byte is kept, strings stay readable). */
  readonly raw: string;
  readonly spans: readonly ReceivedSpan[];
}

/**
 * An OTLP/HTTP trace receiver on loopback (port 0): takes `POST /v1/traces` in
 * application/x-protobuf or application/json (gzip'd or not), answers 200 with an empty
 * ExportTraceServiceResponse, and keeps what it got. A body it cannot decode is answered 400
 * and kept as an error, so a test sees it.
 */
export async function startOtlpReceiver() {
  const received: ReceivedExport[] = [];
  const errors: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const contentType = (request.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
      try {
        if (request.method !== "POST") throw new Error(`${request.method ?? "?"} ${request.url ?? "?"}: only POST is taken`);
        let body = Buffer.concat(chunks);
        if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
        if (contentType === "application/x-protobuf") {
          received.push({ path: request.url ?? "", contentType, raw: body.toString("latin1"), spans: decodeTraceRequest(body) });
          response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
        } else if (contentType === "application/json") {
          const raw = body.toString("utf8");
          received.push({ path: request.url ?? "", contentType, raw, spans: decodeJsonTraceRequest(raw) });
          response.writeHead(200, { "content-type": "application/json" }).end("{}");
        } else throw new Error(`unexpected content-type '${contentType}'`);
      } catch (error) {
        errors.push((error as Error).message);
        response.writeHead(400, { "content-type": "text/plain" }).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
    url,
    exports: (): readonly ReceivedExport[] => received,
    spans: (): ReceivedSpan[] => received.flatMap((item) => item.spans),
    errors: (): readonly string[] => errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
