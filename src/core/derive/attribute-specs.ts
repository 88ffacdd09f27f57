import type { CollectionSpec } from "../domain/option-collection.js";
import type { PimAttribute, PimMeasurementFamily } from "../domain/pim-catalog.js";
import { SELECT_ATTRIBUTE_TYPES, UNSUPPORTED_ATTRIBUTE_TYPES } from "../domain/pim-catalog.js";
import { codeKey } from "./code-key.js";
import { collectionDimensions } from "./collection-dimensions.js";
import type { NamingTemplates } from "./naming.js";
import { renderName } from "./naming.js";
import type { ProjectScope } from "./project-scope.js";

export const LEGACY_REFERENCE_DATA_REASON = "legacy reference data has no options in the PIM API";

/** What one attribute contributes; the caller merges these and resolves name clashes. */
export type AttributeSpecs =
  | { readonly outcome: "specs"; readonly specs: readonly CollectionSpec[] }
  | { readonly outcome: "problem"; readonly problem: string }
  | { readonly outcome: "unsupported"; readonly reason: string }
  | { readonly outcome: "ignored" };

export interface AttributeSpecsContext {
  readonly scope: ProjectScope;
  readonly naming: NamingTemplates;
  /** Keyed by codeKey: the PIM matches family codes case-insensitively. */
  readonly measurementFamilies: ReadonlyMap<string, PimMeasurementFamily>;
}

/** Expects templates that passed validateNamingTemplates; renderName throws otherwise. */
export function attributeSpecs(attribute: PimAttribute, context: AttributeSpecsContext): AttributeSpecs {
  const { code, type } = attribute;
  switch (type) {
    case SELECT_ATTRIBUTE_TYPES.simpleSelect:
    case SELECT_ATTRIBUTE_TYPES.multiSelect:
      return perDimension(attribute, context, "select", { kind: "attribute-options", attribute: code });
    case SELECT_ATTRIBUTE_TYPES.referenceEntity:
    case SELECT_ATTRIBUTE_TYPES.referenceEntityCollection: {
      const referenceEntity = attribute.referenceDataName?.trim() ?? "";
      if (referenceEntity === "") {
        return problem(`attribute '${code}' (${type}) has no reference entity code (reference_data_name)`);
      }
      return perDimension(attribute, context, "reference-entity", {
        kind: "reference-entity-records",
        referenceEntity,
      });
    }
    case SELECT_ATTRIBUTE_TYPES.metric: {
      const familyCode = attribute.metricFamily?.trim() ?? "";
      if (familyCode === "") {
        return problem(`attribute '${code}' (${type}) has no measurement family (metric_family)`);
      }
      const family = context.measurementFamilies.get(codeKey(familyCode));
      if (family === undefined) {
        return problem(`attribute '${code}' uses measurement family '${familyCode}', which the PIM does not list`);
      }
      // The family's own spelling, so that the options reader finds it by exact code.
      return single(attribute, context.naming.unit, "unit", { kind: "measurement-units", measurementFamily: family.code });
    }
    case SELECT_ATTRIBUTE_TYPES.priceCollection:
      return single(attribute, context.naming.currency, "currency", { kind: "currencies" });
    default:
      if ((UNSUPPORTED_ATTRIBUTE_TYPES as readonly string[]).includes(type)) {
        return { outcome: "unsupported", reason: LEGACY_REFERENCE_DATA_REASON };
      }
      return { outcome: "ignored" };
  }
}

/** Units and currencies do not vary by locale or channel, so one collection serves every value. */
function single(attribute: PimAttribute, template: string, kind: CollectionSpec["kind"], source: CollectionSpec["source"]): AttributeSpecs {
  const name = renderName(template, { attribute: attribute.code });
  return { outcome: "specs", specs: [{ name, attribute: attribute.code, kind, locale: null, channel: null, source }] };
}

function perDimension(
  attribute: PimAttribute,
  context: AttributeSpecsContext,
  kind: CollectionSpec["kind"],
  source: CollectionSpec["source"],
): AttributeSpecs {
  const specs = collectionDimensions(attribute, context.scope).map(({ template, locale, channel }) => ({
    name: renderName(context.naming[template], { attribute: attribute.code, locale, channel }),
    attribute: attribute.code,
    kind,
    locale,
    channel,
    source,
  }));
  return { outcome: "specs", specs };
}

function problem(text: string): AttributeSpecs {
  return { outcome: "problem", problem: text };
}
