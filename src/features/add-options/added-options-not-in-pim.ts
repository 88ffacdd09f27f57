import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** The options reached the service but the PIM does not show them (yet): worth retrying. */
export class AddedOptionsNotInPim extends PimSyncError {
  constructor(
    readonly names: readonly string[],
    attribute: string,
  ) {
    super(`the PIM does not show option(s) ${names.join(", ")} of '${attribute}' after they were added`, {
      code: "ADDED_OPTIONS_NOT_VISIBLE",
      retryable: true,
    });
    this.name = "AddedOptionsNotInPim";
  }
}
