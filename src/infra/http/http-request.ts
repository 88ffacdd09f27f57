import type { z } from "zod";
import type { RateLimiter } from "./sliding-window-limiter.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface HttpRequest<S extends z.ZodType> {
  readonly method: HttpMethod;
  /** Absolute URL, or a path resolved against the client's base URL. */
  readonly url: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Sent as JSON unless `rawBody` is given. */
  readonly json?: unknown;
  readonly rawBody?: { readonly contentType: string; readonly body: string };
  readonly schema: S;
  /** Safe to repeat: GETs, and writes that are idempotent by meaning (upserts). */
  readonly idempotent?: boolean;
  /** Counted against a second limiter (e.g. Akeneo's 3 req/s on option writes). */
  readonly extraLimiter?: RateLimiter;
  readonly signal?: AbortSignal;
  /** Headers of this request only (e.g. an Idempotency-Key); never credentials, which `authorize`/`headers` give. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Responses parsed as text, not JSON (NDJSON bodies). */
  readonly responseType?: "json" | "text" | "none";
}

export interface HttpResponse<T> {
  readonly status: number;
  readonly data: T;
}
