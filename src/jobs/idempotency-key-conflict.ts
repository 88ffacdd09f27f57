/** An Idempotency-Key seen before with another body: nothing is queued (trigger 422, CLI exit 2). */
export class IdempotencyKeyConflict extends Error {
  constructor(
    readonly project: number,
    /** The job the key was first used for. */
    readonly jobId: string,
  ) {
    super(`already used for another request body (job ${project}/${jobId}); use a new key for a new request`);
    this.name = "IdempotencyKeyConflict";
  }
}
