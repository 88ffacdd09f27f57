import type { CollectionSpec } from "../../core/domain/option-collection.js";
import { HttpError } from "../../infra/http/http-error.js";
import type { UnwrittenCollection } from "../../core/domain/unwritten-collection.js";

/** A request the upstream refused for good (4xx but 408/425/429, a response of the wrong shape). */
function isPermanent(error: unknown): boolean {
  return error instanceof HttpError && !error.transient;
}

/**
 * What stopped part of one sync, as the report gives it: every failure, the ones a retry would
 * meet again unchanged, and the longest Retry-After an upstream asked for (so the job layer can
 * wait as long as asked instead of backing off blindly).
 */
export class SyncFailures {
  readonly failures: string[] = [];
  readonly permanentFailures: string[] = [];
  readonly unwritten: UnwrittenCollection[] = [];
  retryAfterMs: number | null = null;

  /** Derivation problems come from the PIM's data or the naming: the next run derives the same. */
  constructor(permanent: readonly string[] = []) {
    this.failures.push(...permanent);
    this.permanentFailures.push(...permanent);
  }

  /** A failure; permanent when it has no cause (our own finding) or the upstream refused for good. */
  fail(message: string, error?: unknown): void {
    this.failures.push(message);
    if (error === undefined || isPermanent(error)) this.permanentFailures.push(message);
  }

  noteRetryAfter(error: unknown): void {
    if (error instanceof HttpError && error.transient && error.retryAfterMs !== undefined)
      this.retryAfterMs = Math.max(this.retryAfterMs ?? 0, error.retryAfterMs);
  }

  /** A failed request of the run: its Retry-After noted, the failure recorded. */
  failRequest(message: string, error: unknown): void {
    this.noteRetryAfter(error);
    this.fail(message, error);
  }

  /**
   * Attributes whose read the upstream refused for good: nothing of theirs is written, and each
   * is recorded as unwritten (under its own code, since no collection was derived from it) and
   * permanent, so a targeted sync settles its targets as refused.
   */
  failUnreadAttributes(codes: readonly string[], reason: string): void {
    this.fail(`the PIM refused the read of attribute(s) ${codes.join(", ")}: ${reason}`);
    for (const code of codes) this.unwritten.push({ collection: code, attribute: code, permanent: true });
  }

  /** A failed request that left these collections unwritten: also recorded per collection. */
  failCollections(message: string, error: unknown, specs: readonly CollectionSpec[]): void {
    this.failRequest(message, error);
    const permanent = isPermanent(error);
    for (const spec of specs)
      this.unwritten.push({
        collection: spec.name,
        attribute: spec.attribute,
        ...(spec.source.kind === "reference-entity-records" ? { referenceEntity: spec.source.referenceEntity } : {}),
        permanent,
      });
  }
}
