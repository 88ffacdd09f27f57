export interface Isolated<T> {
  /** Groups the write accepted, in the order they were written. */
  readonly accepted: readonly (readonly T[])[];
  /** Items refused on their own, with the refusal's reason. */
  readonly rejected: readonly { readonly item: T; readonly reason: string }[];
}

/**
 * Writes `items` as one group; when the write is refused for its content (`refusal` returns a
 * reason), splits the group in halves and writes each, down to single items, so that only the
 * culprits are refused and the rest is written. Any other failure is thrown. Relies on a refused
 * write changing nothing (the service validates a whole request before applying it), so the
 * halves can be sent again.
 */
export async function isolateRejections<T>(
  items: readonly T[],
  write: (group: readonly T[]) => Promise<void>,
  refusal: (error: unknown) => string | null,
): Promise<Isolated<T>> {
  const accepted: T[][] = [];
  const rejected: { item: T; reason: string }[] = [];
  async function attempt(group: readonly T[]): Promise<void> {
    if (group.length === 0) return;
    try {
      await write(group);
      accepted.push([...group]);
      return;
    } catch (error) {
      const reason = refusal(error);
      if (reason === null) throw error;
      if (group.length === 1) {
        rejected.push({ item: group[0] as T, reason });
        return;
      }
    }
    const middle = Math.ceil(group.length / 2);
    await attempt(group.slice(0, middle));
    await attempt(group.slice(middle));
  }
  await attempt(items);
  return { accepted, rejected };
}
