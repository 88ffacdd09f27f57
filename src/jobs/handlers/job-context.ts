import type { Logger } from "pino";
import type { ProjectRuntime } from "../../features/project-runtime.js";
import type { Settings } from "../../settings/settings-schema.js";

/**
 * What every project job's handler is given (see project-queue-binding.ts); what one job needs
 * beyond it, it declares as its catalog entry's `deps` (catalog/define-job.ts).
 */
export interface JobContext {
  readonly jobId: string;
  readonly runtime: ProjectRuntime;
  readonly settings: Settings;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** A line in the job's log (shown by `pim-sync jobs show`). */
  log(line: string): Promise<void>;
}
