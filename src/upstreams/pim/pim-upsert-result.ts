import type { CollectionLine, UpsertItemResult } from "./pim-schemas.js";

/** What pim-sync writes to the PIM: an option or a record, identified by code, with its labels. */
export interface PimUpsertItem {
  readonly code: string;
  /** PIM locale (`en_US`) → text. */
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * The PIM's verdict on one item of a batch write: 201 created, 204 updated, 4xx rejected.
 * `status` 0 means the PIM answered the batch but said nothing about this item.
 */
export interface PimUpsertResult {
  readonly code: string;
  readonly status: number;
  readonly message?: string;
}

/** Status 0: no HTTP status exists for an item the PIM left out of its answer. */
export const NO_STATUS = 0;

/**
 * Maps NDJSON status lines back to what was sent. `line` is 1-based and always present, while
 * `code` is missing for unreadable lines, so the line number is what ties an answer to an item.
 */
export function resultsFromCollectionLines(sent: readonly PimUpsertItem[], lines: readonly CollectionLine[]): PimUpsertResult[] {
  const answered = new Set<number>();
  const results: PimUpsertResult[] = [];
  for (const line of lines) {
    const item = sent[line.line - 1];
    if (item) answered.add(line.line - 1);
    results.push(withMessage(item?.code ?? line.code ?? "", line.status_code, line));
  }
  return [...results, ...unanswered(sent, (_, index) => answered.has(index))];
}

/** JSON-array upserts (records) answer one object per item, each naming its code. */
export function resultsFromUpsertList(sent: readonly PimUpsertItem[], items: readonly UpsertItemResult[]): PimUpsertResult[] {
  // The PIM treats codes case-insensitively and may echo its own spelling.
  const answered = new Set(items.map((item) => item.code.toLowerCase()));
  const results = items.map((item) => withMessage(item.code, item.status_code, item));
  return [...results, ...unanswered(sent, (item) => answered.has(item.code.toLowerCase()))];
}

function withMessage(
  code: string,
  status: number,
  answer: {
    readonly message?: string | undefined;
    readonly errors?: readonly { property?: string | undefined; message: string }[] | undefined;
  },
): PimUpsertResult {
  // Validation failures say only "Validation failed."; the useful part is in `errors`.
  const details = (answer.errors ?? []).map((error) => (error.property ? `${error.property}: ${error.message}` : error.message));
  const parts = [answer.message, ...details].filter((part): part is string => part !== undefined && part !== "");
  return parts.length > 0 ? { code, status, message: parts.join(" | ") } : { code, status };
}

function unanswered(sent: readonly PimUpsertItem[], isAnswered: (item: PimUpsertItem, index: number) => boolean): PimUpsertResult[] {
  return sent
    .filter((item, index) => !isAnswered(item, index))
    .map((item) => ({ code: item.code, status: NO_STATUS, message: "the PIM returned no status for this item" }));
}
