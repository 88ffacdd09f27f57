import type { StoredJobData } from "./define-job.js";

/** The listing line of an Activation job: its connection, and how many offers it carries. */
export function connectionSummary(data: StoredJobData): string {
  const connection = typeof data.connection === "string" ? data.connection : "?";
  const count = Array.isArray(data.offers) ? `: ${data.offers.length} offer(s)` : "";
  return `connection ${connection}${count}`;
}
