/**
 * A request that can never succeed as it is (not allowlisted, wrong attribute type, bad input):
 * rejected before any write, and never retried.
 */
export class AddOptionsRejected extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`add-options rejected: ${reasons.join("; ")}`);
    this.name = "AddOptionsRejected";
  }
}
