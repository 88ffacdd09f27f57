import type { ServiceOption } from "../../core/domain/option-collection.js";
import type { HistoryGroup, OptionChange } from "../../stores/history/history-batch.js";
import type { RunOrigin } from "../../stores/history/run-origin.js";
import type { AddOptionsDeps } from "./add-options-deps.js";

/** The service call that carried the options. */
export type AddOptionsCall = "add-options" | "update-options";

/**
 * What one accepted add-options or update-options call adds to the history: each option `added`,
 * under the request that asked for it (one group per request). A history that cannot store it
 * fails the write's collection, as on the sync path: the state does not take the write, so the
 * job's retry writes it again and records it then; no accepted write is missing from the history.
 */
export async function recordAddedHistory(args: {
  readonly deps: Pick<AddOptionsDeps, "history">;
  readonly project: number;
  readonly collection: string;
  readonly parts: readonly { readonly request: string; readonly options: readonly ServiceOption[] }[];
  readonly call: AddOptionsCall;
  readonly originOf: (request: string) => RunOrigin;
  readonly now: () => number;
}): Promise<void> {
  const { deps, collection } = args;
  if (!deps.history) return;
  const at = new Date(args.now()).toISOString();
  const reason =
    args.call === "add-options"
      ? "asked for through add-options (created in the PIM too)"
      : "asked for through add-options (the PIM already had it)";
  const batch: HistoryGroup[] = args.parts.map(({ request, options }) => {
    const origin = args.originOf(request);
    return {
      collection,
      kind: "added",
      reason,
      job: origin.job,
      trigger: origin.trigger,
      ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }),
      at,
      options: options.map((option): OptionChange => [option.name, null, option.label]),
    };
  });
  try {
    await deps.history.append(args.project, batch);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `the service accepted the options added to '${collection}', but the change history could not record them (${message}): the state does not take them, the job's retry writes them again`,
      { cause: error },
    );
  }
}
