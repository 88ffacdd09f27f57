import { describe, expect, it } from "vitest";
import { compareReadingOrder, type SourceSize } from "../../../../src/features/sync/reading-order.js";
import { runSourcePipeline } from "../../../../src/features/sync/run-source-pipeline.js";
import { deferred } from "../../../support/deferred.js";

/** Lets every promise callback already queued run (all parties here are in-memory promises). */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const counted = (items: number): SourceSize => ({ kind: "counted", items });

interface Source {
  readonly name: string;
  readonly size: SourceSize;
}

describe("runSourcePipeline", () => {
  it("has its first reader take the largest opened source, in reading order", async () => {
    const sources: Source[] = [
      { name: "small", size: counted(5) },
      { name: "big", size: counted(50_000) },
      { name: "records", size: { kind: "unknown" } },
      { name: "units", size: { kind: "no-read" } },
      { name: "medium", size: counted(2_000) },
    ];
    const gate = deferred<void>();
    const read: string[] = [];

    const run = runSourcePipeline({
      sources,
      // Every source is opened before the reader can take one: the order is then the comparator's.
      open: async (source) => {
        await gate.promise;
        return source;
      },
      compare: (a, b) => compareReadingOrder(a.size, b.size),
      read: async (source) => {
        read.push(source.name);
        return source.name;
      },
      write: async () => undefined,
      readers: 1,
      writers: 1,
      weightOf: () => 1,
      writeBudget: 100,
      openAhead: 10,
    });
    gate.resolve();
    await run;

    expect(read).toEqual(["units", "records", "big", "medium", "small"]);
  });

  it("has the other readers take sources in the given order", async () => {
    const sources: Source[] = [
      { name: "first", size: counted(10) },
      { name: "second", size: counted(20) },
      { name: "largest", size: counted(900) },
    ];
    const gate = deferred<void>();
    const reads = sources.map(() => deferred<string>());
    const started: string[] = [];

    const run = runSourcePipeline({
      sources,
      open: async (source) => {
        await gate.promise;
        return source;
      },
      compare: (a, b) => compareReadingOrder(a.size, b.size),
      read: async (source) => {
        started.push(source.name);
        return reads[sources.indexOf(source)]?.promise;
      },
      write: async () => undefined,
      readers: 2,
      writers: 2,
      weightOf: () => 1,
      writeBudget: 100,
      openAhead: 10,
    });
    gate.resolve();
    await settled();

    expect(started).toEqual(["largest", "first"]);
    for (const read of reads) read.resolve("done");
    await run;
    expect(started).toEqual(["largest", "first", "second"]);
  });

  it("reads the next source while a read one waits to be written, up to the cap on sources waiting to write", async () => {
    const sources = ["a", "b", "c", "d"].map((name): Source => ({ name, size: counted(1) }));
    const writes = new Map(sources.map((source) => [source.name, deferred<void>()]));
    const read: string[] = [];
    const writing: string[] = [];

    const run = runSourcePipeline({
      sources,
      open: async (source) => source,
      compare: () => 0,
      read: async (source) => {
        read.push(source.name);
        return source.name;
      },
      write: async (name) => {
        writing.push(name);
        await writes.get(name)?.promise;
      },
      readers: 1,
      writers: 2,
      weightOf: () => 1,
      writeBudget: 100,
      openAhead: 10,
    });
    await settled();

    // a and b are written (their writes pending), the reader has read c and waits for a write slot.
    expect(writing).toEqual(["a", "b"]);
    expect(read).toEqual(["a", "b", "c"]);

    writes.get("a")?.resolve();
    await settled();
    expect(writing).toEqual(["a", "b", "c"]);
    expect(read).toEqual(["a", "b", "c", "d"]);

    for (const write of writes.values()) write.resolve();
    await run;
    expect(writing).toEqual(["a", "b", "c", "d"]);
  });

  /** A pipeline of sources weighing `sizes`, a write budget of 80 options: each write lasts until the test resolves it. */
  function budgetedPipeline(sizes: Record<string, number>, readers: number) {
    const sources = Object.keys(sizes).map((name): Source => ({ name, size: counted(sizes[name] ?? 0) }));
    const writes = new Map(sources.map((source) => [source.name, deferred<void>()]));
    const writing: string[] = [];
    const run = runSourcePipeline({
      sources,
      open: async (source) => source,
      compare: () => 0,
      read: async (source) => source.name,
      write: async (name) => {
        writing.push(name);
        await writes.get(name)?.promise;
      },
      readers,
      writers: 10,
      weightOf: (name) => sizes[name] ?? 0,
      writeBudget: 80,
      openAhead: 10,
    });
    return { run, writes, writing };
  }

  it("caps the options waiting to write, letting a source larger than the cap through alone", async () => {
    const { run, writes, writing } = budgetedPipeline({ a: 30, b: 30, huge: 500, c: 10 }, 1);
    await settled();
    // a and b (60 options) are writing; huge would go beyond 80: it waits.
    expect(writing).toEqual(["a", "b"]);

    writes.get("a")?.resolve();
    await settled();
    expect(writing).toEqual(["a", "b"]);
    writes.get("b")?.resolve();
    await settled();
    // Alone in the stage, huge goes through though it is larger than the budget; c waits for it.
    expect(writing).toEqual(["a", "b", "huge"]);

    writes.get("huge")?.resolve();
    writes.get("c")?.resolve();
    await run;
    expect(writing).toEqual(["a", "b", "huge", "c"]);
  });

  it("lets sources into the write stage in the order they were read: a long one waiting is not overtaken", async () => {
    const { run, writes, writing } = budgetedPipeline({ a: 30, huge: 500, b: 10, c: 10 }, 2);
    await settled();
    // b would fit beside a, but huge was read first and waits for the stage to empty.
    expect(writing).toEqual(["a"]);

    writes.get("a")?.resolve();
    await settled();
    expect(writing).toEqual(["a", "huge"]);

    for (const write of writes.values()) write.resolve();
    await run;
    expect(writing).toEqual(["a", "huge", "b", "c"]);
  });

  it("opens at most openAhead sources beyond those taken", async () => {
    const sources = Array.from({ length: 6 }, (_, i): Source => ({ name: `s${i}`, size: counted(1) }));
    const opened: string[] = [];
    const firstRead = deferred<string>();

    const run = runSourcePipeline({
      sources,
      open: async (source) => {
        opened.push(source.name);
        return source;
      },
      compare: () => 0,
      read: async (source) => (source.name === "s0" ? firstRead.promise : source.name),
      write: async () => undefined,
      readers: 1,
      writers: 1,
      weightOf: () => 1,
      writeBudget: 100,
      openAhead: 2,
    });
    await settled();

    // s0 taken (its read pending), s1 and s2 opened and waiting: nothing more.
    expect(opened).toEqual(["s0", "s1", "s2"]);
    firstRead.resolve("s0");
    await run;
    expect(opened).toEqual(sources.map((source) => source.name));
  });

  it("skips the write of a source whose read gave nothing, and ends with the error a write throws", async () => {
    const sources = ["ok", "failed", "broken"].map((name): Source => ({ name, size: counted(1) }));
    const written: string[] = [];

    const run = runSourcePipeline({
      sources,
      open: async (source) => source,
      compare: () => 0,
      read: async (source) => (source.name === "failed" ? undefined : source.name),
      write: async (name) => {
        if (name === "broken") throw new Error("aborted");
        written.push(name);
      },
      readers: 1,
      writers: 1,
      weightOf: () => 1,
      writeBudget: 100,
      openAhead: 10,
    });

    await expect(run).rejects.toThrow("aborted");
    expect(written).toEqual(["ok"]);
  });
});
