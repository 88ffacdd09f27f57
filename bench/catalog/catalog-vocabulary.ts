/**
 * The fixed names the generated catalogues draw from: real Akeneo codes where there are some
 * (locales, currencies, measurement families and units), so the catalogue reads like a real one.
 */

export const LOCALE_CODES = ["en_US", "fr_FR", "de_DE", "es_ES", "it_IT", "nl_NL", "pt_PT", "sv_SE"] as const;

/** The word an option or record label starts with, per locale. */
export const LABEL_WORDS: Readonly<Record<string, string>> = {
  en_US: "Value",
  fr_FR: "Valeur",
  de_DE: "Wert",
  es_ES: "Valor",
  it_IT: "Valore",
  nl_NL: "Waarde",
  pt_PT: "Valor",
  sv_SE: "Värde",
};

export const CURRENCY_CODES = ["EUR", "USD", "GBP", "CHF", "SEK", "JPY"] as const;

/** Channel i takes the first `CHANNEL_LOCALE_COUNTS[i]` enabled locales (0: all of them). */
export const CHANNEL_CODES = ["ecommerce", "mobile", "print"] as const;
export const CHANNEL_LOCALE_COUNTS = [0, 2, 3] as const;
export const CHANNEL_CURRENCY_COUNTS = [0, 1, 2] as const;

/** Types the sync ignores, which make up the rest of a catalogue's attributes. */
export const OTHER_ATTRIBUTE_TYPES = [
  "pim_catalog_text",
  "pim_catalog_text",
  "pim_catalog_textarea",
  "pim_catalog_number",
  "pim_catalog_boolean",
  "pim_catalog_date",
  "pim_catalog_image",
  "pim_catalog_file",
] as const;

export const REFERENCE_ENTITY_CODES = ["brand", "designer", "supplier", "material_ref", "collection_ref", "care_label"] as const;

export interface MeasurementFamilyVocabulary {
  readonly code: string;
  readonly standardUnit: string;
  readonly units: readonly string[];
}

export const MEASUREMENT_FAMILIES: readonly MeasurementFamilyVocabulary[] = [
  { code: "Weight", standardUnit: "KILOGRAM", units: ["MILLIGRAM", "GRAM", "KILOGRAM", "TON", "OUNCE", "POUND"] },
  { code: "Length", standardUnit: "METER", units: ["MILLIMETER", "CENTIMETER", "METER", "KILOMETER", "INCH", "FOOT", "YARD", "MILE"] },
  { code: "Volume", standardUnit: "LITER", units: ["MILLILITER", "CENTILITER", "LITER", "CUBIC_METER", "GALLON", "PINT"] },
  { code: "Temperature", standardUnit: "KELVIN", units: ["CELSIUS", "FAHRENHEIT", "KELVIN"] },
  { code: "Power", standardUnit: "WATT", units: ["WATT", "KILOWATT", "MEGAWATT", "HORSEPOWER"] },
  { code: "Duration", standardUnit: "SECOND", units: ["MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK"] },
  { code: "Frequency", standardUnit: "HERTZ", units: ["HERTZ", "KILOHERTZ", "MEGAHERTZ", "GIGAHERTZ"] },
  {
    code: "Area",
    standardUnit: "SQUARE_METER",
    units: ["SQUARE_MILLIMETER", "SQUARE_CENTIMETER", "SQUARE_METER", "HECTARE", "SQUARE_FOOT", "ACRE"],
  },
];
