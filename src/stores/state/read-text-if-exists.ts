import { readFile } from "node:fs/promises";

/** A state file's text, or null when it does not exist yet (any other failure is thrown). */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
