/**
 * What is wrong with a cron expression's shape, or null when every field is well formed. The
 * queue's parser (cron-parser) reads short patterns as if the missing fields were `*`, so
 * `*\/15 * * *` would silently mean "every minute during hours 0 and 15"; this check comes first
 * and insists on the whole expression. Accepted, and nothing else: 5 fields (minute hour day
 * month weekday) or 6 with seconds first; in each field a list of `*`, a value or a range `a-b`,
 * each optionally followed by a step `/n`. Months and weekdays may be named (JAN, MON; any case);
 * weekday 7 is Sunday, as 0. cron-parser's extensions (`?`, `L`, `W`, `#`, `H`, `@daily`) are
 * refused: docs/configuration.md documents plain cron only, and an extension mistyped reads as another one.
 */
export function cronExpressionProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return `has ${fields.length} field${fields.length === 1 ? "" : "s"}; give 5 (minute hour day-of-month month weekday) or 6 (a seconds field first)`;
  }
  const specs = fields.length === 6 ? [SECOND, ...STANDARD_FIELDS] : STANDARD_FIELDS;
  for (const [index, field] of fields.entries()) {
    const spec = specs[index];
    if (spec === undefined) continue;
    const problem = fieldProblem(field, spec);
    if (problem !== null) return `${spec.name} field '${field}': ${problem}`;
  }
  return null;
}

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  /** Names accepted for values, in order from `min` (months, weekdays). */
  readonly names?: readonly string[];
}

const SECOND: FieldSpec = { name: "second", min: 0, max: 59 };
const STANDARD_FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] },
  { name: "weekday", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

function fieldProblem(field: string, spec: FieldSpec): string | null {
  for (const item of field.split(",")) {
    const problem = itemProblem(item, spec);
    if (problem !== null) return problem;
  }
  return null;
}

function itemProblem(item: string, spec: FieldSpec): string | null {
  if (item === "") return "an empty list item";
  const parts = item.split("/");
  if (parts.length > 2) return `'${item}' has more than one step`;
  const [base = "", step] = parts;
  if (step !== undefined) {
    if (!/^\d+$/.test(step)) return `the step '${step}' is not a whole number`;
    const n = Number(step);
    // A step larger than the field's range gives its start only, which is not what was meant.
    if (n < 1 || n > spec.max) return `the step ${step} is outside 1-${spec.max}`;
  }
  if (base === "*") return null;
  const bounds = base.split("-");
  if (bounds.length > 2) return `'${base}' is not a value or a range a-b`;
  const values: number[] = [];
  for (const bound of bounds) {
    const value = valueOf(bound, spec);
    if (typeof value === "string") return value;
    values.push(value);
  }
  const [from, to] = values;
  if (from !== undefined && to !== undefined && from > to) return `the range '${base}' runs backwards`;
  return null;
}

function valueOf(text: string, spec: FieldSpec): number | string {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    return value >= spec.min && value <= spec.max ? value : `${text} is outside ${spec.min}-${spec.max}`;
  }
  const named = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (/^[A-Za-z]{3}$/.test(text) && named >= 0) return named + spec.min;
  const accepted = spec.names
    ? `a number ${spec.min}-${spec.max} or a name (${spec.names[0]}-${spec.names[spec.names.length - 1]})`
    : `a number ${spec.min}-${spec.max}`;
  return `'${text}' is not ${accepted}`;
}
