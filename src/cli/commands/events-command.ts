import { SUBSCRIBED_EVENT_TYPES } from "../../events/pim-event.js";
import { findProject } from "../../project-runtime.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { parseCommandArgs, parseProjectId, requireString } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const EVENTS_HELP = `Usage: pim-sync events --config FILE --project ID --url BASE_URL

Prints, as JSON, the Akeneo Event Platform subscription a project needs: its event types, the
receiver's URL (BASE_URL + /v1/pim-events/ID; the worker's public HTTPS address) and which
configured secret it must be signed with. The secret's value is never printed: give the
platform the same value as the one in the project's pim.events.secret (docs/pim-events.md).

Options:
  --config FILE     configuration file (YAML or JSON)
  --project ID      configuration-service project id (its pim.events must be set)
  --url BASE_URL    the worker's public base URL, https
  -h, --help        show this help

Exit codes: 0 printed, 2 usage or config error.`;

export async function runEventsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { config: { type: "string" }, project: { type: "string" }, url: { type: "string" } }, EVENTS_HELP);
  if (values.help) {
    writeLine(io.stdout, EVENTS_HELP);
    return 0;
  }
  const configPath = requireString(values.config, "--config", EVENTS_HELP);
  const projectId = parseProjectId(values.project, EVENTS_HELP);
  const base = requireString(values.url, "--url", EVENTS_HELP);
  let url: URL;
  try {
    url = new URL(`/v1/pim-events/${projectId}`, base);
  } catch {
    throw new UsageError(`--url: '${base}' is not a URL`, EVENTS_HELP);
  }
  // The platform refuses plain HTTP; a local test may still use it.
  if (url.protocol !== "https:") io.stderr.write("warning: the Event Platform only accepts https URLs\n");
  const settings = await loadCommandSettings(configPath, io);
  const project = findProject(settings, projectId);
  if (!project) throw new UsageError(`project ${projectId} is not in ${configPath}`, EVENTS_HELP);
  const events = project.pim.events;
  if (!events) throw new UsageError(`project ${projectId} has no pim.events in ${configPath}: add { secret: \${VAR} } first`, EVENTS_HELP);
  const subscription = {
    type: "https",
    url: url.toString(),
    events: SUBSCRIBED_EVENT_TYPES,
    secret: { primary: `projects[id=${projectId}].pim.events.secret`, ...(events.secondary_secret === undefined ? {} : { secondary: `projects[id=${projectId}].pim.events.secondary_secret` }) },
    ...(events.subject === undefined ? {} : { subject: events.subject }),
    pim_url: project.pim.url,
  };
  writeLine(io.stdout, JSON.stringify(subscription, null, 2));
  return 0;
}
