import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** Raised before any write when the project's filters do not match the PIM. */
export class ProjectScopeError extends PimSyncError {
  constructor(readonly problems: readonly string[]) {
    super(`project filters do not match the PIM:\n${problems.map((p) => `  - ${p}`).join("\n")}`, {
      code: "PROJECT_SCOPE",
      retryable: false,
    });
    this.name = "ProjectScopeError";
  }
}
