/**
 * The Redis key of one request's recorded outcome. Built here only: a Redis Cluster setup tags
 * the project part (`{…}`) in this one place, so a project's keys share a slot.
 */
export function addOptionsOutcomeKey(prefix: string, project: number, jobId: string): string {
  return `${prefix}:add-outcome:${project}:${jobId}`;
}
