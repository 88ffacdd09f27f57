import {
  deriveCollectionSpecs,
  pimLocaleToServiceLocale,
  resolveProjectScope,
  type NamingTemplates,
  type ProjectFilters,
} from "../../core/derive/index.js";
import type { CollectionSpec } from "../../core/domain/option-collection.js";
import type { PimAttribute, PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import type { AddOptionsRequest } from "./add-options-request.js";

export interface AddOptionsProject {
  readonly allowedAttributes: readonly string[];
  readonly filters: ProjectFilters;
  readonly naming: NamingTemplates;
}

export type Targets =
  | { readonly rejection: string[]; readonly specs?: undefined; readonly attribute?: undefined }
  | { readonly rejection?: undefined; readonly specs: CollectionSpec[]; readonly attribute: PimAttribute };

const ADDABLE_KINDS: ReadonlySet<CollectionSpec["kind"]> = new Set(["select", "reference-entity"]);

/** The collections an add-options request targets, or every reason it must be rejected. Pure. */
export function resolveTargets(
  structure: PimCatalogStructure,
  project: AddOptionsProject,
  request: Pick<AddOptionsRequest, "attribute" | "options">,
): Targets {
  const attribute = structure.attributes.find((candidate) => candidate.code === request.attribute);
  if (!attribute)
    return { rejection: [`attribute '${request.attribute}' does not exist in the PIM (or is not a select or reference-entity attribute)`] };
  const { scope, problems } = resolveProjectScope(structure, project.filters);
  if (problems.length > 0) return { rejection: problems };
  const specs = deriveCollectionSpecs(structure, scope, project.naming).specs.filter((spec) => spec.attribute === request.attribute);
  if (specs.length === 0 || specs.some((spec) => !ADDABLE_KINDS.has(spec.kind))) {
    return {
      rejection: [
        `attribute '${request.attribute}' (${attribute.type}) is not a select or reference-entity attribute with collections in this project`,
      ],
    };
  }
  const projectLocales = new Set(scope.locales.map(pimLocaleToServiceLocale));
  const badLocales = new Set(request.options.flatMap((option) => Object.keys(option.label).filter((key) => !projectLocales.has(key))));
  if (badLocales.size > 0) {
    return {
      rejection: [`label locale(s) ${[...badLocales].join(", ")} are not among the project's locales (${[...projectLocales].join(", ")})`],
    };
  }
  return { specs, attribute };
}
