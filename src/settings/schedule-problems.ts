import { createRequire } from "node:module";
import type * as CronParser from "cron-parser";
import { cronExpressionProblem } from "./cron-expression-problem.js";
import { messageOf } from "../core/errors/message-of.js";
import { oncePerKey } from "../core/memo/once-per-key.js";

// Required when a schedule is checked, not at start: most commands' configs have none, and
// loading the parser costs about 30 ms of every command's start (cron-parser is CommonJS).
const require = createRequire(import.meta.url);
const cronParser = (): typeof CronParser => require("cron-parser") as typeof CronParser;

/**
 * Problems with a project's `schedule`, found when the config loads rather than when the worker
 * registers it: the cron expression's shape is checked field by field (cronExpressionProblem),
 * then it is parsed by the parser the queue's scheduler uses (which also knows that no 30th of
 * February comes); the time zone by the runtime's own zone database. Each problem names the key
 * and the project.
 */
export function scheduleProblems(
  index: number,
  projectId: unknown,
  schedule: { readonly cron: string; readonly timezone?: string | undefined },
): string[] {
  const where = (key: string): string => `projects[${index}].schedule.${key} (project ${String(projectId)})`;
  const problems: string[] = [];
  const timezoneOk = schedule.timezone === undefined || isKnownTimezone(schedule.timezone);
  if (!timezoneOk)
    problems.push(`${where("timezone")}: '${schedule.timezone}' is not a known IANA time zone (such as Europe/Paris or UTC)`);
  const cron = cronProblem(schedule.cron, timezoneOk ? schedule.timezone : undefined);
  if (cron !== null) problems.push(`${where("cron")}: ${cron}`);
  return problems;
}

/** The problem with `activation.orders.schedule` (a cron expression in the worker's zone), or null. */
export function activationScheduleProblem(cron: string): string | null {
  const problem = cronProblem(cron, undefined);
  return problem === null ? null : `activation.orders.schedule: ${problem}`;
}

/**
 * Answers kept per zone and per cron and zone for the life of the process: a fleet's projects
 * share a few of each, and a check costs about 0.1 ms (a formatter, a parse), which a config of
 * 1,000 projects would otherwise pay at every start.
 */
const isKnownTimezone = oncePerKey(
  (timezone: string) => timezone,
  (timezone: string): boolean => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: timezone });
      return true;
    } catch {
      return false;
    }
  },
);

const cronProblem = oncePerKey(
  (cron: string, timezone: string | undefined) => `${cron}\u0000${timezone ?? ""}`,
  (cron: string, timezone: string | undefined) => checkCron(cron, timezone),
);

function checkCron(cron: string, timezone: string | undefined): string | null {
  const shape = cronExpressionProblem(cron);
  if (shape !== null) return `'${cron}' is not a valid cron expression: ${shape}`;
  try {
    cronParser().CronExpressionParser.parse(cron, timezone !== undefined ? { tz: timezone } : {});
    return null;
  } catch (error) {
    return `'${cron}' is not a valid cron expression (${messageOf(error)})`;
  }
}
