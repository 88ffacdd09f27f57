import type { JobContext } from "../handlers/job-context.js";
import type { JobData, ProjectJobName } from "./job-catalog.js";

/**
 * Handlers that replace the catalog's for project jobs: only to measure the queue's own cost
 * (bench/) and to observe from inside a job in tests. The worker runs the catalog's.
 */
export type JobHandlers = { readonly [N in ProjectJobName]: (data: JobData<N>, context: JobContext) => Promise<unknown> };
