/**
 * What every scenario looks like: a function of a context (one catalogue size, simulators running
 * on it, a way to run a sync in a child process) to figures and measurements. Scenarios of one
 * size run in order on the same simulators and state: the no-change re-sync needs the first sync.
 */
import type { CatalogSizeName } from "../catalog/catalog-sizes.js";
import type { MinimalRequests } from "../floor/count-minimal-requests.js";
import type { FigureKey } from "../report/figures.js";
import type { SyncChildResult } from "../sync-child-protocol.js";
import type { RunTimeline } from "./request-timeline.js";
import type { ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import type { PimSimulator } from "../../sim/pim/pim-simulator.js";

/** A value in a measurement group: numbers, or a short word (e.g. which upstream bounds the floor). */
export type Measurement = number | string | null;
export type MeasurementGroup = Readonly<Record<string, Measurement>>;

/** What one simulator received during a run. */
export interface UpstreamCount {
  /** Every request that reached it, refused ones (429) included. */
  readonly requests: number;
  /** PATCH requests (option writes); token POSTs are not writes. */
  readonly writes: number;
  readonly rateLimited: number;
  readonly maxInFlight: number;
}

export interface SyncRun {
  /** Spawn to exit of the child: process start and module loading included. */
  readonly wallMs: number;
  readonly child: SyncChildResult;
  readonly pim: UpstreamCount;
  readonly service: UpstreamCount;
  /** Lines the child logged (warn level and above): retries, 429s… */
  readonly childLogLines: number;
  readonly timeline: RunTimeline;
  /** CPU time the parent (both simulators) used during the run. */
  readonly simulatorsCpuMs: number;
  /** 1-minute load average when the run ended: above the core count, other processes competed for the CPU. */
  readonly loadAverage: number;
}

/** What the worker scenarios (add-options, queue overhead) need besides the simulators. */
export interface WorkerScenarioOptions {
  /** Their queues and the worker's state live under a prefix of their own, deleted afterwards. */
  readonly redisUrl: string;
  /** add-options runs under this size only: it costs 100 s of service budget at any size. */
  readonly addOptionsSize: CatalogSizeName;
  /** The queue overhead does not depend on the catalogue: measured under one size of a run only. */
  readonly measureQueueOverhead: boolean;
  /** Nor does the fleet (its own simulators and catalogue): once per run, under the same size. */
  readonly measureFleet: boolean;
  /** The start-up of the CLI's commands and what a PIM event leaves in Redis: once per run, under the same size. */
  readonly measureOncePerRun: boolean;
}

export interface ScenarioContext {
  readonly size: CatalogSizeName;
  readonly latencyMs: number;
  readonly minimal: { readonly firstSync: MinimalRequests; readonly resync: MinimalRequests };
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  /** One sync in a child process; the simulators' counters cover exactly this run. */
  runSync(label: string): Promise<SyncRun>;
  progress(message: string): void;
  readonly worker: WorkerScenarioOptions;
}

export interface ScenarioResult {
  readonly figures: Partial<Record<FigureKey, number | null>>;
  readonly measurements: Readonly<Record<string, MeasurementGroup>>;
  /** Why a figure is null, or anything a reader of the results must know. */
  readonly note: string | null;
}

export type Scenario = (context: ScenarioContext) => Promise<ScenarioResult>;
