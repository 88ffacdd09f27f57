import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { heldPlanSchema, type HeldPlan } from "./held-plan.js";
import { isExpired, nextRevision, oldestFirst, type HeldStore } from "./held-store.js";
import { readJsonFile } from "../../../stores/state/read-json-file.js";

const fileSchema = z.array(heldPlanSchema);

/** For `--once` without Redis: `{stateDir}/project-{id}/held.json`, written whole and renamed into place. */
export function createFileHeldStore(stateDir: string, options: { readonly now?: () => number } = {}): HeldStore {
  const now = options.now ?? Date.now;
  const fileOf = (project: number): string => join(stateDir, `project-${project}`, "held.json");

  const read = (project: number): Promise<HeldPlan[]> => readJsonFile(fileOf(project), fileSchema, "held plans file", []);

  async function write(project: number, plans: readonly HeldPlan[]): Promise<void> {
    const path = fileOf(project);
    await mkdir(join(path, ".."), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(plans));
    await rename(temporary, path);
  }

  return {
    async list(project) {
      const plans = await read(project);
      const live = plans.filter((plan) => !isExpired(plan, now()));
      if (live.length < plans.length) await write(project, live);
      return live.sort(oldestFirst);
    },
    // Without Redis only one process writes a project's plans at a time (the `--once` lock), so
    // a read-compare-write in this process is the compare-and-set.
    async save(plan, read_) {
      const plans = await read(plan.project);
      const current = plans.find((other) => other.id === plan.id) ?? null;
      if (read_ === null ? current !== null : current?.revision !== read_.revision) return false;
      await write(plan.project, [...plans.filter((other) => other.id !== plan.id), nextRevision(plan, read_)]);
      return true;
    },
    async discard(plan) {
      const plans = await read(plan.project);
      const current = plans.find((other) => other.id === plan.id);
      if (current?.revision !== plan.revision) return false;
      await write(
        plan.project,
        plans.filter((other) => other.id !== plan.id),
      );
      return true;
    },
  };
}
