import { pimLocaleToServiceLocale } from "../derive/locale-code.js";
import { resolveProjectScope } from "../derive/project-scope.js";
import type { ProjectRuntime } from "../project-runtime.js";

/**
 * The locales a project's labels may use, in the service's spelling (`en-US`): the enabled PIM
 * locales narrowed by the project's `locales` filter. Read through the runtime's catalog cache;
 * `fresh` re-reads the PIM (before refusing anything on the strength of a cached answer).
 */
export async function projectLabelLocales(runtime: Pick<ProjectRuntime, "catalog" | "project">, fresh: boolean, signal?: AbortSignal): Promise<string[]> {
  const structure = await runtime.catalog.structure({ fresh, signal });
  const { scope } = resolveProjectScope(structure, { channels: runtime.project.channels, locales: runtime.project.locales });
  return scope.locales.map(pimLocaleToServiceLocale);
}
