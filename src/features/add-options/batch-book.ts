import type { CollectionOutcome } from "./add-options-outcome.js";
import { ReliedOnRefusedRequest } from "./relied-on-refused-request.js";

/**
 * What a batch has found out about each of its requests so far: why it is rejected, what each of
 * its collections got, whose additions it relies on, and why it is left undecided. Every step of
 * the run reads and writes its requests' fate here, and nowhere else.
 */
export class BatchBook {
  readonly #rejected = new Map<string, string[]>();
  readonly #collections = new Map<string, CollectionOutcome[]>();
  readonly #reliesOn = new Map<string, Set<string>>();
  readonly #undecided = new Map<string, Error>();

  /** The first reasons a request is rejected for are its outcome's: later ones are left out. */
  reject(id: string, reasons: readonly string[]): void {
    if (!this.#rejected.has(id)) this.#rejected.set(id, [...reasons]);
  }

  isRejected(id: string): boolean {
    return this.#rejected.has(id);
  }

  /** Rejected or undecided: nothing more is checked for it. */
  isSettled(id: string): boolean {
    return this.#rejected.has(id) || this.#undecided.has(id);
  }

  /** What one collection got for the request, after the collections recorded before it. */
  recordCollection(id: string, outcome: CollectionOutcome): void {
    this.#collections.set(id, [...(this.#collections.get(id) ?? []), outcome]);
  }

  /** What was not written is not added; what an accepted write (or an earlier run) added stays. */
  dropUnsent(id: string, collection: string, unsent: readonly string[]): void {
    const names = new Set(unsent.map((name) => name.toLowerCase()));
    const outcomes = this.#collections.get(id) ?? [];
    this.#collections.set(
      id,
      outcomes.map((o) => (o.collection === collection ? { ...o, added: o.added.filter((name) => !names.has(name.toLowerCase())) } : o)),
    );
  }

  /** The request found options present because these earlier requests of the batch add them. */
  relyOn(id: string, owners: Iterable<string>): void {
    this.#reliesOn.set(id, new Set([...(this.#reliesOn.get(id) ?? []), ...owners]));
  }

  /** A request that relied on a request the service refused runs again on its own. */
  decideReliances(): void {
    for (const [id, owners] of this.#reliesOn) {
      const refused = [...owners].filter((owner) => this.#rejected.has(owner));
      if (!this.#rejected.has(id) && refused.length > 0) this.#undecided.set(id, new ReliedOnRefusedRequest(refused));
    }
  }

  /** Left without an outcome: the request runs again, for this reason. */
  leaveUndecided(id: string, reason: Error): void {
    this.#undecided.set(id, reason);
  }

  get rejected(): ReadonlyMap<string, readonly string[]> {
    return this.#rejected;
  }

  get collections(): ReadonlyMap<string, readonly CollectionOutcome[]> {
    return this.#collections;
  }

  get undecided(): ReadonlyMap<string, Error> {
    return this.#undecided;
  }
}
