/**
 * The configuration service's side of the model: option collections, their options and the
 * select fields that use them. Labels here use the service's locale keys (`en-US`).
 */

/** Service labels: BCP-47-style locale (`en-US`) → non-empty text. */
export type ServiceLabels = Readonly<Record<string, string>>;

export interface ServiceOption {
  readonly name: string;
  readonly label: ServiceLabels;
}

/** Where the options of a derived collection come from; one read serves every collection of a source. */
export type OptionSource =
  | { readonly kind: "attribute-options"; readonly attribute: string }
  | { readonly kind: "reference-entity-records"; readonly referenceEntity: string }
  | { readonly kind: "measurement-units"; readonly measurementFamily: string }
  | { readonly kind: "currencies" };

export type CollectionKind = "select" | "reference-entity" | "unit" | "currency";

/** A collection the PIM implies, before its options are read. */
export interface CollectionSpec {
  readonly name: string;
  readonly attribute: string;
  readonly kind: CollectionKind;
  readonly locale: string | null;
  readonly channel: string | null;
  readonly source: OptionSource;
}

/** A select field in the seed's shape. */
export interface SelectField {
  readonly name: string;
  readonly groups: readonly string[];
  readonly requirement_level: "optional";
  readonly type: "select";
  readonly options_collection_name: string;
  readonly multiple: boolean;
}

export interface DesiredCollection {
  readonly spec: CollectionSpec;
  readonly options: readonly ServiceOption[];
}

/** Stable identity of an option source, for grouping and logging. */
export function optionSourceKey(source: OptionSource): string {
  switch (source.kind) {
    case "attribute-options":
      return `attribute-options:${source.attribute}`;
    case "reference-entity-records":
      return `reference-entity-records:${source.referenceEntity}`;
    case "measurement-units":
      return `measurement-units:${source.measurementFamily}`;
    case "currencies":
      return "currencies";
  }
}
