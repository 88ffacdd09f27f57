import type { NamingTemplates } from "../core/derive/naming.js";
import type { DeletionGuard } from "../core/reconcile/collection-plan.js";
import { namingTemplatesOf } from "./naming-templates-of.js";
import type { ProjectSettings } from "./settings-schema.js";

/** A project's naming templates, as derivation takes them. */
export function namingOf(project: ProjectSettings): NamingTemplates {
  return namingTemplatesOf(project.naming);
}

/** A project's deletion guard, as planning takes it. */
export function guardOf(project: ProjectSettings): DeletionGuard {
  return {
    maxFraction: project.deletion_guard.max_fraction,
    minCount: project.deletion_guard.min_count,
    windowMs: project.deletion_guard.window_ms,
  };
}
