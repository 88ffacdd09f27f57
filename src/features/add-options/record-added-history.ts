import type { ServiceOption } from "../../core/domain/option-collection.js";
import type { HistoryGroup, OptionChange } from "../../stores/history/history-batch.js";
import type { RunOrigin } from "../../stores/history/run-origin.js";
import type { AddOptionsDeps } from "./add-options-deps.js";

/** The service call that carried the options. */
export type AddOptionsCall = "add-options" | "update-options";

/**
 * What one accepted add-options or update-options call adds to the history: each option `added`,
 * under the request that asked for it (one group per request). A history that cannot be written
 * is logged, not thrown: the write is made, and the state takes it next (as a sync does).
 */
export async function recordAddedHistory(args: {
  readonly deps: Pick<AddOptionsDeps, "history" | "logger">;
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
    deps.logger.error({ collection, err: error }, "could not record added options in the change history");
  }
}
