/** bench/results/<ISO date>.json, in the package's own bench folder (from src or dist alike). */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { benchResultsSchema, type BenchResults } from "./bench-results.js";
import { mergeResults } from "./assemble-results.js";

export function resultsDirectory(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, "package.json"))) return join(directory, "bench", "results");
    const parent = resolve(directory, "..");
    if (parent === directory) throw new Error("cannot find the package root (no package.json above the benchmark)");
    directory = parent;
  }
}

/** Writes (merging with today's file, see mergeResults) and returns the path and what was written. */
export async function writeResults(
  results: BenchResults,
  directory: string = resultsDirectory(),
): Promise<{ path: string; written: BenchResults }> {
  await mkdir(directory, { recursive: true });
  const path = join(directory, `${results.date}.json`);
  const written = mergeResults(await readPrevious(path), results);
  await writeFile(path, `${JSON.stringify(written, null, 2)}\n`);
  return { path, written };
}

async function readPrevious(path: string): Promise<BenchResults | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = benchResultsSchema.safeParse(JSON.parse(text) as unknown);
    // A file of another shape (an older version) is replaced rather than merged.
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
