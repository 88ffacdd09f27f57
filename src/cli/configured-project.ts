import { findProject } from "../settings/find-project.js";
import type { ProjectSettings, Settings } from "../settings/settings-schema.js";
import { UsageError } from "./usage-error.js";

/** The project `id` of the config, or a usage error naming the file and the projects it has. */
export function configuredProject(settings: Settings, id: number, configPath: string, help: string): ProjectSettings {
  const project = findProject(settings, id);
  if (project) return project;
  const known = settings.projects.map((p) => p.id).join(", ");
  throw new UsageError(`project ${id} is not in ${configPath} (configured: ${known})`, help);
}
