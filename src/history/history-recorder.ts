import type { HistoryBatch } from "./history-batch.js";
import type { HistoryStore } from "./history-store.js";

export interface HistoryRecorder {
  /** Queues a batch behind the ones before it and returns at once. */
  record(batch: HistoryBatch): void;
  /** Resolves when every queued batch is stored or its failure reported; never rejects. */
  settled(): Promise<void>;
}

/**
 * Appends a run's batches one after another (in the order written, so ids keep that order)
 * while the run goes on: the next chunk's request does not wait for the previous chunk's XADD or
 * file append. A batch that cannot be stored is handed to `onError` (the write itself stands,
 * the state has it) and the next one is still tried.
 */
export function createHistoryRecorder(store: HistoryStore, project: number, onError: (error: unknown, batch: HistoryBatch) => void): HistoryRecorder {
  let tail: Promise<void> = Promise.resolve();
  return {
    record(batch) {
      tail = tail.then(() => store.append(project, batch)).catch((error: unknown) => onError(error, batch));
    },
    settled() {
      return tail;
    },
  };
}
