import type { Logger } from "pino";
import type { JsonKeyStyle } from "../../core/json/json-key-style.js";
import type { Redactor } from "../../infra/secrets/redactor.js";
import type { JobAdmin } from "../../jobs/admin/job-admin.js";
import type { PreparedWorker, RunningWorker } from "../../jobs/worker/start-worker.js";
import type { ReviewAdmin } from "../../server/admin/review-admin-routes.js";
import type { AuthGate } from "../../server/auth/auth-gate.js";
import type { AuthSurface } from "../../server/auth/auth-refusal.js";
import type { ListenSettings } from "../../server/http/listen-settings.js";
import type { WorkerMetrics } from "../../server/metrics/worker-metrics.js";
import type { Settings } from "../../settings/settings-schema.js";
import type { StateStore } from "../../stores/state/state-store.js";

/**
 * What the worker process offers its HTTP surfaces (http-surface.ts), each made once: the app's
 * stores and the prepared worker's queues and stores, and the server's own redactor, metrics,
 * credential checks and job admin. A surface takes what it needs in its `deps`.
 */
export interface SurfaceParts {
  readonly settings: Settings;
  readonly listen: ListenSettings;
  readonly logger: Logger;
  /** The one redactor of every answer (src/infra/secrets/). */
  readonly redactor: Redactor;
  /** The worker's metrics (made whenever the server is). */
  readonly metrics: WorkerMetrics | undefined;
  /** The credential check of one surface: its failed-login throttle, refusal warning and metric. */
  gate(surface: AuthSurface): AuthGate;
  /** The worker before it has started: its queues, stores and Redis connection. */
  readonly worker: PreparedWorker;
  /** The started worker; null until it has started. */
  running(): RunningWorker | null;
  /** Why the worker cannot work now (empty when it can): `/readyz` and `pim_sync_ready`. */
  notReadyReasons(): Promise<readonly string[]>;
  /** Jobs by ref, listings, replays: shared by the admin API and `GET /v1/jobs/...`. */
  readonly jobAdmin: JobAdmin;
  /** The app's change history and held plans. */
  readonly review: ReviewAdmin;
  /** The app's state store: what pim-sync last wrote (read only here). */
  readonly state: StateStore;
  /** The keys of the admin API's and `GET /v1/jobs`' answers. */
  readonly jsonKeys: JsonKeyStyle;
}
