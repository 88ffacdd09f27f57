/**
 * What a simulator route sees of a request and what it answers. The body is read whole before
 * routing: simulators need exact bytes (NDJSON lines, line lengths) and bodies are small.
 */
import type { IncomingHttpHeaders } from "node:http";

export interface SimRequest {
  readonly method: string;
  /** Raw pathname, still percent-encoded; the router decodes path parameters. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** `http://host:port` as the client addressed us (Host header), so links work on any address. */
  readonly origin: string;
  /** Bytes of the request line's target (path and query, as sent): what a proxy's URL bound counts. */
  readonly targetBytes: number;
}

export type SimReply =
  | {
      readonly kind: "reply";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  | { readonly kind: "drop" };

/** One header value; repeated headers are joined the way HTTP allows (`, `). */
export function headerOf(request: SimRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The authorization scheme (`Bearer`, `Basic`, `Token`) without the credentials. */
export function authSchemeOf(request: SimRequest): string | null {
  const value = headerOf(request, "authorization")?.trim();
  if (value === undefined || value === "") return null;
  return value.split(/\s+/, 1)[0] ?? null;
}

/** The media type of Content-Type, lower-cased and without parameters (`; charset=utf-8`). */
export function contentTypeOf(request: SimRequest): string | undefined {
  const value = headerOf(request, "content-type");
  if (value === undefined) return undefined;
  return value.split(";", 1)[0]?.trim().toLowerCase();
}
