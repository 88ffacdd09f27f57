import type { ProjectSettings, Settings } from "./settings-schema.js";

/** The configured project of this id, if any. */
export function findProject(settings: Settings, id: number): ProjectSettings | undefined {
  return settings.projects.find((project) => project.id === id);
}
