import type { FastifyInstance } from "fastify";
import { refuseWhileStarting } from "../../server/http/refuse-while-starting.js";
import type { HttpSurface } from "./http-surface.js";
import type { SurfaceParts } from "./surface-parts.js";

/**
 * Registers each surface the config asks for, in the table's order: the ungated ones on the
 * server itself, the gated ones in one scope of their own whose hook answers 503 until the
 * worker has started. Each surface's `deps` is taken once, as it is registered.
 */
export async function serveHttpSurfaces(app: FastifyInstance, surfaces: readonly HttpSurface[], parts: SurfaceParts): Promise<void> {
  const register = async (scope: FastifyInstance, surface: HttpSurface): Promise<void> => {
    const deps = surface.deps(parts);
    if (deps !== null) await surface.register(scope, deps);
  };
  for (const surface of surfaces) if (surface.gated !== true) await register(app, surface);
  await app.register(async (scope) => {
    scope.addHook(
      "onRequest",
      refuseWhileStarting(() => parts.running() !== null),
    );
    for (const surface of surfaces) if (surface.gated === true) await register(scope, surface);
  });
}
