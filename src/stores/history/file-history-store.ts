import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { entriesOfBatch, historyBatchSchema, optionsIn, type HistoryBatch } from "./history-batch.js";
import { compareRecordIds, type HistoryRecord, type HistoryStore } from "./history-store.js";

const lineSchema = z.object({ id: z.string().regex(/^\d+-\d+$/), batch: historyBatchSchema });
/** Every line starts with its id (this store writes `id` first): trimming reads no more of it. */
const LINE_ID = /^\{"id":"(\d+)-(\d+)"/;

/** One line of the file: the id first, so that `LINE_ID` finds it. */
function lineOf(id: string, batch: HistoryBatch): string {
  return `{"id":${JSON.stringify(id)},"batch":${JSON.stringify(batch)}}\n`;
}

/**
 * For `--once` without Redis: `{stateDir}/project-{id}/history.ndjson`, one line per written
 * chunk (`{id, batch}`, ids shaped like a stream's). Appending is one `appendFile`; the first
 * append of a process rewrites the file without what is older than the retention (a `--once`
 * process appends for one run, so that is once per run), reading only each line's id for that.
 */
export function createFileHistoryStore(
  stateDir: string,
  options: { readonly retentionMs: number; readonly now?: () => number },
): HistoryStore {
  const now = options.now ?? Date.now;
  const fileOf = (project: number): string => join(stateDir, `project-${project}`, "history.ndjson");
  const trimmed = new Set<number>();
  const lastId = new Map<number, string>();

  async function readLines(project: number): Promise<string[]> {
    try {
      return (await readFile(fileOf(project), "utf8")).split("\n").filter((line) => line.trim() !== "");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  function idOf(project: number, line: string, index: number): { readonly id: string; readonly atMs: number } {
    const found = LINE_ID.exec(line);
    if (found?.[1] === undefined || found[2] === undefined)
      throw new Error(`corrupt history file ${fileOf(project)}, line ${index + 1}: no id first`);
    return { id: `${found[1]}-${found[2]}`, atMs: Number(found[1]) };
  }

  function recordOf(project: number, line: string, index: number): HistoryRecord {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new Error(`corrupt history file ${fileOf(project)}, line ${index + 1}: not JSON`);
    }
    const parsed = lineSchema.safeParse(raw);
    if (!parsed.success)
      throw new Error(`corrupt history file ${fileOf(project)}, line ${index + 1}: ${parsed.error.issues[0]?.message ?? "bad line"}`);
    return { id: parsed.data.id, atMs: Number(parsed.data.id.split("-")[0]), entries: entriesOfBatch(parsed.data.batch) };
  }

  /** Drops the lines past the retention; returns the last id kept. */
  async function trim(project: number): Promise<string | undefined> {
    const lines = await readLines(project);
    const oldest = now() - options.retentionMs;
    const kept = lines.filter((line, index) => idOf(project, line, index).atMs >= oldest);
    if (kept.length < lines.length) {
      const path = fileOf(project);
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, kept.map((line) => `${line}\n`).join(""));
      await rename(temporary, path);
    }
    const last = lines.at(-1);
    return last === undefined ? undefined : idOf(project, last, lines.length - 1).id;
  }

  /** After the last id written (by this process or found in the file): ids only grow. */
  function nextId(previous: string | undefined): string {
    const ms = now();
    const [lastMs = 0, lastSeq = 0] = (previous ?? "0-0").split("-").map(Number);
    return ms > lastMs ? `${ms}-0` : `${lastMs}-${lastSeq + 1}`;
  }

  return {
    async append(project, batch) {
      if (optionsIn(batch) === 0) return;
      if (!trimmed.has(project)) {
        await mkdir(join(stateDir, `project-${project}`), { recursive: true });
        const last = await trim(project);
        trimmed.add(project);
        if (last !== undefined) lastId.set(project, last);
      }
      const id = nextId(lastId.get(project));
      lastId.set(project, id);
      await appendFile(fileOf(project), lineOf(id, batch));
    },
    async *newestFirst(project, query) {
      const since = Math.max(query.sinceMs, now() - options.retentionMs);
      const lines = await readLines(project);
      for (let index = lines.length - 1; index >= 0; index -= 1) {
        query.signal?.throwIfAborted();
        const line = lines[index];
        if (line === undefined) continue;
        // Only the lines wanted are parsed whole: a page of the newest reads no more.
        const { id, atMs } = idOf(project, line, index);
        if (atMs < since) continue;
        if (query.startId !== undefined && compareRecordIds(id, query.startId) > 0) continue;
        yield recordOf(project, line, index);
      }
    },
  };
}
