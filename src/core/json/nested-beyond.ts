/** Where a value is, from the top: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

interface Visit {
  readonly value: object;
  /** 1 for the value itself, 2 for an array or object in it, and so on. */
  readonly depth: number;
  readonly key: string | number;
  readonly parent: Visit | null;
}

/**
 * The path of the first array or object that sits deeper than `maxDepth` levels (the value
 * itself is level 1), or null when none does. It walks a work list, never recursing, and stops
 * at the first one found: it is the check that lets recursive code (zod, JSON.stringify, our own
 * walks) take the value afterwards without a stack overflow, however deep the input was.
 */
export function nestedBeyond(value: unknown, maxDepth: number): JsonPath | null {
  if (value === null || typeof value !== "object") return null;
  const work: Visit[] = [{ value, depth: 1, key: "", parent: null }];
  for (let visit = work.pop(); visit !== undefined; visit = work.pop()) {
    if (visit.depth > maxDepth) return pathOf(visit);
    const members: [string | number, unknown][] = Array.isArray(visit.value)
      ? visit.value.map((item: unknown, index) => [index, item])
      : Object.entries(visit.value);
    // Last first, so that the first deep member in reading order is the one reported.
    for (let index = members.length - 1; index >= 0; index -= 1) {
      const [key, member] = members[index] as [string | number, unknown];
      if (member !== null && typeof member === "object") work.push({ value: member, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return null;
}

function pathOf(visit: Visit): JsonPath {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at !== null && at.parent !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** `offers.0.a.b…`: the path's first `segments` parts, for a message (a deep path would fill it). */
export function jsonPathText(path: JsonPath, segments = 6): string {
  const shown = path.slice(0, segments).join(".");
  return path.length > segments ? `${shown}…` : shown;
}
