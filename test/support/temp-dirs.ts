import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Every temp folder made here and not yet removed: the fixtures' leak check counts them. */
const made = new Set<string>();

/** A fresh folder under the system's temp folder, remembered until `removeTempDir`. */
export async function makeTempDir(prefix = "pim-sync-test-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes the folder and what it holds; forgotten only once it is gone. */
export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  made.delete(dir);
}

/** How many folders makeTempDir made are still on disk (a removal that failed, or never ran). */
export function tempDirsLeft(): number {
  return [...made].filter((dir) => existsSync(dir)).length;
}
