/** Every object key anywhere in a JSON value, nested ones included. */
export function everyKeyOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(everyKeyOf);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...everyKeyOf(item)]);
}
