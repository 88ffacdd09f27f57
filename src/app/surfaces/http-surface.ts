import type { FastifyInstance } from "fastify";
import type { SurfaceParts } from "./surface-parts.js";

/**
 * One surface of the worker's HTTP server (its health checks, the trigger routes, the admin...):
 * an entry of the table in http-surfaces.ts, which is the whole of what the server serves. As a
 * job's entry declares its `deps` (src/jobs/catalog/), a surface declares what it needs of the
 * worker process' parts, so that a new surface, or a surface that needs something new, changes
 * its own file and the table, not the server's assembly. Declared with methods so that entries of
 * different needs fit one list; each entry's `register` is only given its own `deps`' result.
 */
export interface HttpSurface<D extends object = object> {
  /** What docs and reviews call it. */
  readonly name: string;
  /**
   * Registered behind the starting gate: answered 503 with Retry-After until the worker has
   * started (refuse-while-starting.ts). Left out: served as soon as the listener opens.
   */
  readonly gated?: boolean;
  /** What its routes need, taken from the worker process' parts once, as the server is built; null when the config leaves it out. */
  deps(parts: SurfaceParts): D | null;
  /** Registers its routes on `scope` (the server, or the gated scope) with what `deps` gave. */
  register(scope: FastifyInstance, deps: D): Promise<void>;
}

/** Keeps an entry's own type of deps, so that its `register` is checked against its `deps`. */
export function defineHttpSurface<D extends object>(surface: HttpSurface<D>): HttpSurface<D> {
  return surface;
}
