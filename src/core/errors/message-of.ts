/** The message of anything thrown, for a one-line answer or summary (logs take the error itself). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
