import type { RequestStats } from "../../infra/http/request-stats.js";
import { AddOptionsRejected } from "./add-options-rejected.js";
import type { AddOptionsRequest } from "./add-options-request.js";
import { runAddOptionsBatch, type AddOptionsDeps, type VisibilityCheck } from "./run-add-options-batch.js";
import type { AddOptionsProject } from "./resolve-targets.js";

export { AddedOptionsNotInPim } from "./added-options-not-in-pim.js";
export type { AddOptionsDeps, VisibilityCheck } from "./run-add-options-batch.js";
export type { AddOptionsProject } from "./resolve-targets.js";

export interface AddOptionsReport {
  readonly project: number;
  readonly attribute: string;
  readonly collections: readonly { readonly collection: string; readonly added: readonly string[]; readonly skipped: readonly string[] }[];
  /** Collections the attribute derives that do not exist in the service. */
  readonly missing: readonly string[];
  readonly requests: { readonly pim: RequestStats; readonly service: RequestStats };
}

/**
 * Adds options to every collection derived from one attribute through the service's
 * add-options endpoint (which creates them in the PIM too), never re-sending an existing option;
 * then records them as written (so the next sync does not rewrite them), remembers them as
 * recently added (so a sync that reads a lagging PIM list does not delete them), and checks the
 * PIM shows them. Every rejection of the request itself happens before the first write.
 * A batch of one (see run-add-options-batch.ts): the `--once` command's path.
 */
export async function runAddOptions(
  deps: AddOptionsDeps,
  project: AddOptionsProject,
  request: AddOptionsRequest,
  options: { readonly signal?: AbortSignal; readonly visibility: VisibilityCheck },
): Promise<AddOptionsReport> {
  const id = "request";
  const report = await runAddOptionsBatch(deps, project, [{ id, request }], options);
  const undecided = report.undecided.get(id);
  if (undecided) throw undecided;
  const outcome = report.outcomes.get(id);
  if (!outcome) throw new Error("add-options: the request got no outcome");
  if (outcome.status === "rejected") throw new AddOptionsRejected(outcome.reasons);
  return {
    project: outcome.project,
    attribute: outcome.attribute,
    collections: outcome.collections,
    missing: outcome.missing,
    requests: report.requests,
  };
}
