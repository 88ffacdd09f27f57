import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/**
 * The Activation API answered in a way that will not improve by asking again (a cursor that
 * repeats, a connection list of the wrong shape): the job fails at once, the CLI exits 1.
 */
export class ActivationProtocolError extends PimSyncError {
  constructor(message: string) {
    super(message, { code: "ACTIVATION_PROTOCOL", retryable: false });
    this.name = "ActivationProtocolError";
  }
}
