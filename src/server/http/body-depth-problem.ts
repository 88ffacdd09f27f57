import { jsonPathText, nestedBeyond } from "../../core/json/nested-beyond.js";

/**
 * The deepest a request body may nest (the body itself is level 1). A megabyte of `[` is half a
 * million levels: JSON.parse takes them, but zod, JSON.stringify (a job's data into Redis) and
 * our own walks recurse, and would run out of stack. Every route checks it, without recursion,
 * right after parsing; the deepest body a route takes is an Activation offer's (32 levels of its
 * own, MAX_PAYLOAD_DEPTH in src/upstreams/activation/activation-assumptions.ts, plus 2 of the envelope).
 */
export const MAX_BODY_DEPTH = 64;

/** Why a parsed body is refused for its depth, naming where; null when it is not too deep. */
export function bodyDepthProblem(body: unknown): string | null {
  const path = nestedBeyond(body, MAX_BODY_DEPTH);
  return path === null ? null : `body nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays (at ${jsonPathText(path)})`;
}
