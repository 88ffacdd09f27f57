/** A request body the server refuses, with the status to answer. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "BodyError";
  }
}
