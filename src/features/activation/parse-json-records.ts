import { PimSyncError } from "../../core/errors/pim-sync-error.js";
import { messageOf } from "../../core/errors/message-of.js";
import { payloadDepthProblem } from "./payload-depth-problem.js";
/** A problem in an input file, with the line (NDJSON) or element (array) it is on. */
export class RecordFileError extends PimSyncError {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${problems.join("; ")}`, { code: "RECORD_FILE_INVALID", retryable: false });
    this.name = "RecordFileError";
  }
}

/**
 * Reads the objects of an offers or shipments file: a JSON array of objects, or NDJSON (one
 * object per line, blank lines skipped). Which one is decided by the first non-blank character
 * (`[` = array). Every bad line or element is reported at once, by number; nothing is returned
 * when any is bad, so a half-read file never leads to a partial send. An object nested deeper
 * than MAX_PAYLOAD_DEPTH is bad (nothing walks it before this check).
 */
export function parseJsonRecords(text: string, source: string): Record<string, unknown>[] {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trimStart().startsWith("[")) return parseArray(body, source);
  return parseNdjsonLines(body, source);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function parseArray(text: string, source: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RecordFileError(source, [`not valid JSON: ${messageOf(error)}`]);
  }
  if (!Array.isArray(parsed)) throw new RecordFileError(source, ["expected a JSON array of objects"]);
  const problems: string[] = [];
  parsed.forEach((item: unknown, index) => {
    const problem = isObject(item) ? payloadDepthProblem(item) : `expected an object, got ${describe(item)}`;
    if (problem !== null) problems.push(`element [${index}]: ${problem}`);
  });
  if (problems.length > 0) throw new RecordFileError(source, problems);
  return parsed as Record<string, unknown>[];
}

function parseNdjsonLines(text: string, source: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`);
      return;
    }
    const problem = isObject(value) ? payloadDepthProblem(value) : `expected an object, got ${describe(value)}`;
    if (problem !== null) problems.push(`line ${index + 1}: ${problem}`);
    else if (isObject(value)) records.push(value);
  });
  if (problems.length > 0) throw new RecordFileError(source, problems);
  return records;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
