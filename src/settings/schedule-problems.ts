import { createRequire } from "node:module";
import type * as CronParser from "cron-parser";

// Required when a schedule is checked, not at start: most commands' configs have none, and
// loading the parser costs about 30 ms of every command's start (cron-parser is CommonJS).
const require = createRequire(import.meta.url);
const cronParser = (): typeof CronParser => require("cron-parser") as typeof CronParser;

/**
 * Problems with a project's `schedule`, found when the config loads rather than when the worker
 * registers it: the cron expression is parsed by the parser the queue's scheduler uses, the
 * time zone by the runtime's own zone database. Each problem names the key and the project.
 */
export function scheduleProblems(index: number, projectId: unknown, schedule: { readonly cron: string; readonly timezone?: string | undefined }): string[] {
  const where = (key: string): string => `projects[${index}].schedule.${key} (project ${String(projectId)})`;
  const problems: string[] = [];
  let timezoneOk = true;
  if (schedule.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: schedule.timezone });
    } catch {
      timezoneOk = false;
      problems.push(`${where("timezone")}: '${schedule.timezone}' is not a known IANA time zone (such as Europe/Paris or UTC)`);
    }
  }
  try {
    cronParser().CronExpressionParser.parse(schedule.cron, timezoneOk && schedule.timezone !== undefined ? { tz: schedule.timezone } : {});
  } catch (error) {
    problems.push(`${where("cron")}: '${schedule.cron}' is not a valid cron expression (${(error as Error).message})`);
  }
  return problems;
}
