import type { CollectionSpec } from "../../core/domain/option-collection.js";
import type { PimAttribute } from "../../core/domain/pim-catalog.js";
import type { BatchRequest } from "./batch-request.js";
import type { lookUpPimCodes } from "./pim-option-lookup.js";

/** The requests of a batch for one attribute, with the collections it derives. */
export interface AttributeGroup {
  readonly attribute: PimAttribute;
  readonly kind: CollectionSpec["kind"];
  /** The attribute's collections the service has. */
  readonly present: readonly CollectionSpec[];
  /** The names of those it lacks. */
  readonly missing: readonly string[];
  readonly requests: BatchRequest[];
}

export type PimOptionTarget = Parameters<typeof lookUpPimCodes>[1];

/** Where the PIM keeps the group's options: an attribute's options, or a reference entity's records. */
export function pimTargetOf(group: AttributeGroup): PimOptionTarget {
  return {
    attribute: group.attribute.code,
    referenceEntity: group.attribute.referenceDataName,
    kind: group.kind === "reference-entity" ? "reference-entity" : "select",
  };
}
