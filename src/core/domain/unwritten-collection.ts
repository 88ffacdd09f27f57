/** A collection a failed read or write left as it was, and what derives it (a targeted sync settles its targets by it). */
export interface UnwrittenCollection {
  readonly collection: string;
  readonly attribute: string;
  /** For a collection of a reference entity's records. */
  readonly referenceEntity?: string;
  /** The upstream refused for good: a retry would meet the same. */
  readonly permanent: boolean;
}
