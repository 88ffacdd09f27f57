/**
 * Runs a sync's sources through three stages:
 * - open: at most `openAhead` sources opened and not yet read (an attribute's first page, which
 *   tells its length), started in the given (catalogue) order;
 * - read: `readers` sources read at once. The first reader takes the opened source `compare`
 *   puts first (the largest), the others take them in the given order: the large sources start
 *   early and are read alongside the rest, rather than all at once, so that their writes (few
 *   but heavy) are spread over the run instead of holding every write slot together;
 * - write: read sources waiting for the service or writing, at most `writers` of them and at
 *   most `writeBudget` options in all (`weightOf`), or a single source larger than that.
 * A reader hands its source to the write stage and reads the next one: a source whose writes
 * wait for the service's budget no longer holds a read slot. A reader waits for room in the
 * write stage before taking another source, so the options in memory are those of `readers`
 * sources plus `writeBudget` (plus the opened first pages), however large the catalogue.
 *
 * The callbacks handle their sources' own failures; whatever they throw (an abort) ends the
 * run with that error.
 */
export async function runSourcePipeline<S, O, R>(args: {
  readonly sources: readonly S[];
  readonly open: (source: S) => Promise<O>;
  /** Negative when `a` should be read before `b`; ties are read in the sources' order. */
  readonly compare: (a: O, b: O) => number;
  /** The source's options, or undefined when there is nothing to write (a failed read). */
  readonly read: (opened: O) => Promise<R | undefined>;
  readonly write: (read: R) => Promise<void>;
  /** A read source's size in the write stage's budget (its options). */
  readonly weightOf: (read: R) => number;
  readonly readers: number;
  readonly writers: number;
  readonly writeBudget: number;
  readonly openAhead: number;
  readonly signal?: AbortSignal | undefined;
}): Promise<void> {
  let nextToOpen = 0;
  let opening = 0;
  const opened: { readonly position: number; readonly value: O }[] = [];
  let failure: { readonly error: unknown } | undefined;
  let wakeUps: (() => void)[] = [];
  const changed = (): void => {
    const waiting = wakeUps;
    wakeUps = [];
    for (const wake of waiting) wake();
  };

  const startOpening = (): void => {
    while (nextToOpen < args.sources.length && opening + opened.length < args.openAhead) {
      const position = nextToOpen;
      const source = args.sources[position] as S;
      nextToOpen += 1;
      opening += 1;
      args
        .open(source)
        .then(
          (value) => {
            opened.push({ position, value });
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => {
          opening -= 1;
          changed();
        });
    }
  };

  const take = async (byPriority: boolean): Promise<O | undefined> => {
    for (;;) {
      if (failure) throw failure.error;
      startOpening();
      if (opened.length > 0) {
        let best = 0;
        for (let i = 1; i < opened.length; i += 1) {
          const candidate = opened[i];
          const current = opened[best];
          if (candidate === undefined || current === undefined) continue;
          const order = byPriority ? args.compare(candidate.value, current.value) : 0;
          if (order < 0 || (order === 0 && candidate.position < current.position)) best = i;
        }
        const [taken] = opened.splice(best, 1);
        if (taken === undefined) continue;
        startOpening();
        return taken.value;
      }
      if (opening === 0 && nextToOpen >= args.sources.length) return undefined;
      await new Promise<void>((resolve) => wakeUps.push(resolve));
    }
  };

  const writes: Promise<void>[] = [];
  let writing = 0;
  let writingWeight = 0;
  // Sources enter the write stage in the order they were read: a long source waiting for the
  // stage to empty is not overtaken for ever by short ones that would still fit.
  let ticketsGiven = 0;
  let ticketServed = 0;
  /** Waits for this source's turn and room in the write stage, and takes the room. */
  const enterWriteStage = async (weight: number): Promise<void> => {
    const ticket = ticketsGiven;
    ticketsGiven += 1;
    for (;;) {
      args.signal?.throwIfAborted();
      if (failure) throw failure.error;
      const fits = writing === 0 || (writing < args.writers && writingWeight + weight <= args.writeBudget);
      if (ticket === ticketServed && fits) {
        ticketServed += 1;
        writing += 1;
        writingWeight += weight;
        changed();
        return;
      }
      await new Promise<void>((resolve) => wakeUps.push(resolve));
    }
  };

  const reader = async (byPriority: boolean): Promise<void> => {
    for (let next = await take(byPriority); next !== undefined; next = await take(byPriority)) {
      const result = await args.read(next);
      if (result === undefined) continue;
      const weight = args.weightOf(result);
      await enterWriteStage(weight);
      const write = args.write(result).finally(() => {
        writing -= 1;
        writingWeight -= weight;
        changed();
      });
      // Awaited below; a failure (an abort) also stops the readers at their next source.
      write.catch((error: unknown) => {
        failure ??= { error };
        changed();
      });
      writes.push(write);
    }
  };

  await Promise.all(Array.from({ length: args.readers }, (_, index) => reader(index === 0)));
  await Promise.all(writes);
}
