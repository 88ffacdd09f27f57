import { addOptionsRequestSchema } from "../../features/add-options/add-options-request.js";
import { defineJob } from "./define-job.js";

const SHOWN_OPTIONS = 5;

/** Options added to an attribute of the PIM, asked for by the trigger route or `pim-sync add-options`. */
export const optionsAddJob = defineJob({
  name: "options.add",
  queue: "project",
  schema: addOptionsRequestSchema,
  // 8 attempts: 10 s doubling to about 21 min, about 40 minutes of outage covered.
  attempts: 8,
  backoff: { type: "exponential", delay: 10_000, jitter: 0.5 },
  timeoutMs: (settings) => settings.worker.add_options_timeout_ms,
  summary(data) {
    const names = Array.isArray(data.options)
      ? data.options.map((option: unknown) =>
          option !== null && typeof option === "object" && "name" in option ? String(option.name) : "?",
        )
      : [];
    const shown =
      names.slice(0, SHOWN_OPTIONS).join(", ") + (names.length > SHOWN_OPTIONS ? ` and ${names.length - SHOWN_OPTIONS} more` : "");
    return `${typeof data.attribute === "string" ? data.attribute : "?"}: ${shown}`;
  },
  deps: async (infra) => (await import("../handlers/run-add-options-job.js")).addOptionsDeps(infra),
  handler: async (data, context) => (await import("../handlers/run-add-options-job.js")).runAddOptionsJob(data, context),
  enqueue: { kind: "each", idempotentJobIdPrefix: "add-" },
});
