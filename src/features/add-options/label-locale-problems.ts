import type { AddOptionsRequest } from "./add-options-request.js";

/**
 * Label keys of an add-options request that are not among the project's locales (both in the
 * service's spelling, `en-US`): found where the request enters, so it is refused with a 400
 * instead of being queued to fail later.
 */
export function labelLocaleProblems(request: Pick<AddOptionsRequest, "options">, projectLocales: readonly string[]): string[] {
  const known = new Set(projectLocales);
  const problems: string[] = [];
  request.options.forEach((option, index) => {
    for (const key of Object.keys(option.label)) {
      if (!known.has(key))
        problems.push(`options.${index}.label.${key}: '${key}' is not among the project's locales (${[...known].join(", ")})`);
    }
  });
  return problems;
}
