import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** A request found an option "present" because another request of its batch added it, and the service refused that one. */
export class ReliedOnRefusedRequest extends PimSyncError {
  constructor(readonly requests: readonly string[]) {
    super(
      `an option this request needs was to come from request(s) ${requests.join(", ")} of the same batch, which the service refused; it runs again on its own`,
      { code: "RELIED_ON_REFUSED_REQUEST", retryable: true },
    );
    this.name = "ReliedOnRefusedRequest";
  }
}
