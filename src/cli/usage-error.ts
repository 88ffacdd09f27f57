import { PimSyncError } from "../core/errors/pim-sync-error.js";
/** Bad command-line use: the CLI prints the message and the command's help, exit code 2. */
export class UsageError extends PimSyncError {
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super(message, { code: "USAGE", retryable: false });
    this.name = "UsageError";
  }
}
