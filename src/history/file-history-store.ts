import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { historyEntrySchema } from "./history-entry.js";
import { compareRecordIds, type HistoryRecord, type HistoryStore } from "./history-store.js";

const lineSchema = z.object({ id: z.string().regex(/^\d+-\d+$/), entries: z.array(historyEntrySchema) });

/**
 * For `--once` without Redis: `{stateDir}/project-{id}/history.ndjson`, one line per written
 * chunk (`{id, entries}`, ids shaped like a stream's). Appending is one `appendFile`; the first
 * append of a process rewrites the file without what is older than the retention (a `--once`
 * process appends for one run, so that is once per run).
 */
export function createFileHistoryStore(stateDir: string, options: { readonly retentionMs: number; readonly now?: () => number }): HistoryStore {
  const now = options.now ?? Date.now;
  const fileOf = (project: number): string => join(stateDir, `project-${project}`, "history.ndjson");
  const trimmed = new Set<number>();
  const lastId = new Map<number, string>();

  async function readRecords(project: number): Promise<HistoryRecord[]> {
    const path = fileOf(project);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const records: HistoryRecord[] = [];
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new Error(`corrupt history file ${path}, line ${index + 1}: not JSON`);
      }
      const parsed = lineSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`corrupt history file ${path}, line ${index + 1}: ${parsed.error.issues[0]?.message ?? "bad line"}`);
      records.push({ id: parsed.data.id, atMs: Number(parsed.data.id.split("-")[0]), entries: parsed.data.entries });
    }
    return records;
  }

  async function trim(project: number, records: readonly HistoryRecord[]): Promise<void> {
    const oldest = now() - options.retentionMs;
    const kept = records.filter((record) => record.atMs >= oldest);
    if (kept.length === records.length) return;
    const path = fileOf(project);
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, kept.map((record) => `${JSON.stringify({ id: record.id, entries: record.entries })}\n`).join(""));
    await rename(temporary, path);
  }

  /** After the last id written (by this process or found in the file): ids only grow. */
  function nextId(project: number, previous: string | undefined): string {
    const ms = now();
    const [lastMs = 0, lastSeq = 0] = (previous ?? "0-0").split("-").map(Number);
    return ms > lastMs ? `${ms}-0` : `${lastMs}-${lastSeq + 1}`;
  }

  return {
    async append(project, entries) {
      if (entries.length === 0) return;
      await mkdir(join(stateDir, `project-${project}`), { recursive: true });
      if (!trimmed.has(project)) {
        const records = await readRecords(project);
        await trim(project, records);
        trimmed.add(project);
        const last = records.at(-1);
        if (last) lastId.set(project, last.id);
      }
      const id = nextId(project, lastId.get(project));
      lastId.set(project, id);
      await appendFile(fileOf(project), `${JSON.stringify({ id, entries })}\n`);
    },
    async *newestFirst(project, query) {
      const since = Math.max(query.sinceMs, now() - options.retentionMs);
      const records = await readRecords(project);
      for (let index = records.length - 1; index >= 0; index -= 1) {
        const record = records[index];
        if (record === undefined || record.atMs < since) continue;
        if (query.startId !== undefined && compareRecordIds(record.id, query.startId) > 0) continue;
        yield record;
      }
    },
  };
}
