import { pimLocaleToServiceLocale } from "../../core/derive/locale-code.js";
import { resolveProjectScope } from "../../core/derive/project-scope.js";
import type { CatalogCache } from "./catalog-cache.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";

/**
 * The locales a project's labels may use, in the service's spelling (`en-US`): the enabled PIM
 * locales narrowed by the project's `locales` filter. Read through the runtime's catalog cache,
 * accepting a cached structure at most `maxAgeMs` old (the cache's time to live when left out).
 */
export async function projectLabelLocales(
  runtime: { readonly catalog: CatalogCache; readonly project: Pick<ProjectSettings, "channels" | "locales"> },
  options: { readonly maxAgeMs?: number | undefined; readonly signal?: AbortSignal | undefined } = {},
): Promise<string[]> {
  const structure = await runtime.catalog.structure({ fresh: false, maxAgeMs: options.maxAgeMs, signal: options.signal });
  const { scope } = resolveProjectScope(structure, { channels: runtime.project.channels, locales: runtime.project.locales });
  return scope.locales.map(pimLocaleToServiceLocale);
}
