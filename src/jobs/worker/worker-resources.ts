/**
 * Where the worker records each part as it acquires it, to be released the last acquired first:
 * the app's release stack (src/app/release-stack.ts), which the job layer knows only by this shape.
 * Once the release has begun, `push` releases what it is given at once and throws.
 */
export interface WorkerResources {
  push(name: string, release: () => Promise<unknown> | void): void;
}
