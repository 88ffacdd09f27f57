import type { HistoryBatch } from "./history-batch.js";
import type { HistoryStore } from "./history-store.js";

export interface HistoryRecorder {
  /**
   * Queues a batch behind the ones before it; resolves once the batch before it is stored (or its
   * failure reported), not this one: one batch is stored while the caller writes the next chunk.
   */
  record(batch: HistoryBatch): Promise<void>;
  /** Resolves when every queued batch is stored or its failure reported; never rejects. */
  settled(): Promise<void>;
}

/**
 * Appends a run's batches one after another (in the order written, so ids keep that order)
 * while the run goes on: a chunk's request does not wait for its own XADD or file append, only
 * for the previous chunk's, which had a whole request's time to finish; a slow store therefore
 * holds the run back instead of letting batches pile up in memory. A batch that cannot be stored
 * is handed to `onError` (the write itself stands, the state has it) and the next one is tried.
 */
export function createHistoryRecorder(
  store: HistoryStore,
  project: number,
  onError: (error: unknown, batch: HistoryBatch) => void,
): HistoryRecorder {
  let tail: Promise<void> = Promise.resolve();
  return {
    async record(batch) {
      const previous = tail;
      tail = previous.then(() => store.append(project, batch)).catch((error: unknown) => onError(error, batch));
      await previous;
    },
    settled() {
      return tail;
    },
  };
}
