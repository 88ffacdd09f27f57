import type { ActivationJobName, ProjectJobName } from "./job-catalog.js";

/** What a project job's run ended with, told to whoever watches the worker (its metrics). */
export type JobRunEnd =
  | { readonly name: ProjectJobName; readonly project: number; readonly durationMs: number; readonly ok: true; readonly result: unknown; readonly data: unknown }
  | { readonly name: ProjectJobName; readonly project: number; readonly durationMs: number; readonly ok: false; readonly error: unknown; readonly data: unknown };

/** Told of every project job run (each attempt) this process ends. */
export interface JobObserver {
  runEnded(end: JobRunEnd): void;
}

/** What an Activation job's run ended with (each attempt). */
export type ActivationRunEnd =
  | { readonly name: ActivationJobName; readonly connection: string; readonly ok: true; readonly result: unknown; readonly data: unknown }
  | { readonly name: ActivationJobName; readonly connection: string; readonly ok: false; readonly error: unknown; readonly data: unknown };

/** Told of every Activation job run this process ends. */
export interface ActivationObserver {
  activationRunEnded(end: ActivationRunEnd): void;
}
