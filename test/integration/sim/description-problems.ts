/**
 * Checks a served JSON value against a schema of Akeneo's API description (Swagger 2.0, excerpted
 * in test/fixtures/akeneo/swagger_response_definitions.json): its required properties, its
 * properties' types, and, for the sparse mode, that no optional property is there without a
 * reason. Written for the few schema forms those definitions use, not as a general validator.
 */

export interface DescriptionSchema {
  readonly type?: string;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, DescriptionSchema>>;
  readonly additionalProperties?: DescriptionSchema;
  readonly items?: DescriptionSchema;
  readonly allOf?: readonly DescriptionSchema[];
  readonly default?: unknown;
}

export interface SparseRules {
  /**
   * Whether an optional property without a documented default (or not holding it) may be there:
   * the exceptions the description gives (a property required for some attribute types) and
   * content (a non-empty list of locales, record values). Everything else optional must be absent.
   */
  keep(path: string, key: string, value: unknown, owner: Readonly<Record<string, unknown>>): boolean;
}

/** The properties and required list of a schema, its `allOf` parts merged. */
function flatten(schema: DescriptionSchema): { properties: Record<string, DescriptionSchema>; required: string[] } {
  const properties: Record<string, DescriptionSchema> = { ...schema.properties };
  const required = [...(schema.required ?? [])];
  for (const part of schema.allOf ?? []) {
    const inner = flatten(part);
    Object.assign(properties, inner.properties);
    required.push(...inner.required);
  }
  return { properties, required };
}

/**
 * The description writes a map (labels per locale, units per unit code, conversion units per
 * attribute) as an object with one placeholder property named `localeCode`, `unitCode`…: the
 * placeholder's schema is that of every value.
 */
function placeholderOf(properties: Readonly<Record<string, DescriptionSchema>>): DescriptionSchema | undefined {
  const keys = Object.keys(properties);
  const only = keys[0];
  return keys.length === 1 && only !== undefined && /^[a-z]+Code$/.test(only) ? properties[only] : undefined;
}

function typeProblem(path: string, value: unknown, type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  const ok =
    type === "array"
      ? Array.isArray(value)
      : type === "object"
        ? typeof value === "object" && value !== null && !Array.isArray(value)
        : type === "integer"
          ? Number.isInteger(value)
          : typeof value === type;
  return ok ? undefined : `${path}: ${JSON.stringify(value)} is not of type ${type}`;
}

/** Every way `value` departs from `schema` (empty when it conforms); with `sparse`, also every optional property kept without a reason. */
export function descriptionProblems(value: unknown, schema: DescriptionSchema, path: string, sparse?: SparseRules): string[] {
  const { properties, required } = flatten(schema);
  const problems: string[] = [];
  const wrongType = typeProblem(path, value, schema.type ?? (Object.keys(properties).length > 0 ? "object" : undefined));
  if (wrongType !== undefined) return [wrongType];
  if (Array.isArray(value)) {
    return schema.items ? value.flatMap((item, index) => descriptionProblems(item, schema.items ?? {}, `${path}[${index}]`, sparse)) : [];
  }
  if (typeof value !== "object" || value === null) return [];
  const object = value as Readonly<Record<string, unknown>>;
  const mapValues = schema.additionalProperties ?? placeholderOf(properties);
  if (mapValues !== undefined) {
    // A label may be null in real answers where the schema says string (the published examples
    // carry such nulls; reference "Akeneo's published API description").
    return Object.entries(object).flatMap(([key, inner]) =>
      inner === null && mapValues.type === "string" ? [] : descriptionProblems(inner, mapValues, `${path}.${key}`, sparse),
    );
  }
  for (const key of required) if (!(key in object)) problems.push(`${path}: required property '${key}' is missing`);
  for (const [key, inner] of Object.entries(object)) {
    const property = properties[key];
    if (property === undefined) continue; // Properties the description does not know are the PIM's to add.
    problems.push(...descriptionProblems(inner, property, `${path}.${key}`, sparse));
    if (sparse === undefined || required.includes(key)) continue;
    const holdsDefault = "default" in property && JSON.stringify(property.default) === JSON.stringify(inner);
    if (holdsDefault) problems.push(`${path}.${key}: optional and holding its documented default ${JSON.stringify(inner)}`);
    else if (!("default" in property) && !sparse.keep(path, key, inner, object))
      problems.push(`${path}.${key}: optional, kept without a reason`);
  }
  return problems;
}
