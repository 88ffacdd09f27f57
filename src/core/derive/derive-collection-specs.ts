import type { CollectionSpec, SelectField } from "../domain/option-collection.js";
import type { PimAttribute, PimCatalogStructure, PimMeasurementFamily } from "../domain/pim-catalog.js";
import { SELECT_ATTRIBUTE_TYPES } from "../domain/pim-catalog.js";
import { attributeSpecs } from "./attribute-specs.js";
import { codeKey } from "./code-key.js";
import { compareCodes } from "./compare-codes.js";
import { familyGroupsByAttribute } from "./family-groups.js";
import type { NamingTemplates } from "./naming.js";
import { validateNamingTemplates } from "./naming.js";
import type { ProjectScope } from "./project-scope.js";

export interface UnsupportedAttribute {
  attribute: string;
  type: string;
  reason: string;
}

export interface DerivedSpecs {
  specs: CollectionSpec[];
  fields: SelectField[];
  unsupported: UnsupportedAttribute[];
  problems: string[];
}

const MULTIPLE_TYPES: readonly string[] = [SELECT_ATTRIBUTE_TYPES.multiSelect, SELECT_ATTRIBUTE_TYPES.referenceEntityCollection];

/**
 * The collections and select fields the catalogue implies for a project. Output is ordered by
 * attribute code so that two runs over the same catalogue produce the same plan whatever order the
 * PIM listed things in. Problems are collected rather than thrown: one broken attribute must not
 * stop the others from syncing.
 */
export function deriveCollectionSpecs(structure: PimCatalogStructure, scope: ProjectScope, naming: NamingTemplates): DerivedSpecs {
  const derived: DerivedSpecs = { specs: [], fields: [], unsupported: [], problems: [] };
  const namingProblems = validateNamingTemplates(naming);
  if (namingProblems.length > 0) {
    // Names from a broken template could collide with or orphan real collections; derive nothing.
    derived.problems.push(...namingProblems);
    return derived;
  }
  const context = { scope, naming, measurementFamilies: measurementFamiliesByKey(structure.measurementFamilies) };
  const groupsOf = familyGroupsByAttribute(structure.families);
  const ownerByName = new Map<string, string>();
  const attributes = [...structure.attributes].sort((a, b) => compareCodes(a.code, b.code));

  for (const attribute of attributes) {
    const result = attributeSpecs(attribute, context);
    switch (result.outcome) {
      case "problem":
        derived.problems.push(result.problem);
        break;
      case "unsupported":
        derived.unsupported.push({ attribute: attribute.code, type: attribute.type, reason: result.reason });
        break;
      case "ignored":
        break;
      case "specs":
        for (const spec of result.specs) {
          // Case-insensitive because the service's name matching is unverified; a clash it might
          // see is worse than one it might not.
          const nameKey = codeKey(spec.name);
          const owner = ownerByName.get(nameKey);
          if (owner !== undefined) {
            derived.problems.push(
              `collection name '${spec.name}' from attribute '${spec.attribute}' clashes with one from attribute '${owner}'; keeping the one from '${owner}'`,
            );
            continue;
          }
          ownerByName.set(nameKey, spec.attribute);
          derived.specs.push(spec);
          derived.fields.push(selectField(spec, attribute, groupsOf(attribute.code)));
        }
        break;
    }
  }
  return derived;
}

function selectField(spec: CollectionSpec, attribute: PimAttribute, groups: readonly string[]): SelectField {
  return {
    name: spec.name,
    groups,
    requirement_level: "optional",
    type: "select",
    options_collection_name: spec.name,
    // A unit or currency field always takes one value; only multi-valued links take several.
    multiple: MULTIPLE_TYPES.includes(attribute.type),
  };
}

function measurementFamiliesByKey(families: readonly PimMeasurementFamily[]): Map<string, PimMeasurementFamily> {
  const byKey = new Map<string, PimMeasurementFamily>();
  for (const family of families) {
    if (!byKey.has(codeKey(family.code))) byKey.set(codeKey(family.code), family);
  }
  return byKey;
}
