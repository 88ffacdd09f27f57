import { z } from "zod";
import { SUBSCRIBED_EVENT_TYPES } from "../../features/events/pim-event.js";
import { findProject } from "../../settings/find-project.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { loadCommandSettings } from "../load-command-settings.js";
import { readCommandArgs, projectArgsOf, requireString } from "../parse-command-args.js";
import { sharedOptions } from "../shared-options.js";
import { UsageError } from "../usage-error.js";
import { withApp } from "../../app/with-app.js";
import { createLogger } from "../../infra/log/create-logger.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";
import { createEventSubscription, type SubscriberChoice } from "./create-event-subscription.js";

export const EVENTS_HELP = `Usage: pim-sync events --config FILE --project ID --url BASE_URL
       pim-sync events --config FILE --project ID --url BASE_URL --create (--technical-email EMAIL | --subscriber ID)

Without --create: prints, as JSON, the Akeneo Event Platform subscription a project needs:
its event types, the receiver's URL (BASE_URL + /v1/pim-events/ID; the worker's public HTTPS
address) and which configured secret it must be signed with. The secret's value is never printed:
give the platform the same value as the one in the project's pim.events.secret
(docs/pim-events.md). Nothing is sent anywhere.

With --create: creates that subscription through the Event Platform's API (event_platform.url),
as the project's PIM connection. A PIM access token is obtained with the project's pim
credentials; then --technical-email creates a subscriber with that contact address, or
--subscriber names an existing one (of the same PIM and connection); then the https subscription
is created with the event types, the receiver's URL and the configured secrets
(pim.events.secret, and pim.events.secondary_secret when set). The platform first checks the URL
with HEAD: the worker must be reachable there. Prints, as JSON, subscriber_id,
subscriber_created, subscription_id, status, url, events and subject; never a secret or the
token. The platform activates a subscription within a few minutes. Each --create makes a new
subscription: run it once per project.

Options:
  --config FILE            configuration file (YAML or JSON)
                           (default: the PIM_SYNC_CONFIG environment variable)
  --project ID             configuration-service project id (its pim.events must be set)
  --url BASE_URL           the worker's public base URL, https
  --create                 create the subscription through the Event Platform's API
  --technical-email EMAIL  with --create: create a subscriber with this contact address
  --subscriber ID          with --create: use this existing subscriber (e.g. printed by a first --create)
  -h, --help               show this help

Exit codes: 0 printed or created, 1 the PIM or the platform failed or refused (its reason is
shown), 2 usage or config error (nothing sent).`;

const emailSchema = z.email();

/** Which subscriber --create uses; checked before the config is read, so nothing is sent on bad input. */
function subscriberChoiceOf(create: boolean, email: string | undefined, subscriber: string | undefined): SubscriberChoice | undefined {
  if (!create) {
    if (email !== undefined || subscriber !== undefined)
      throw new UsageError(`${email !== undefined ? "--technical-email" : "--subscriber"} goes with --create`, EVENTS_HELP);
    return undefined;
  }
  if (email !== undefined && subscriber !== undefined)
    throw new UsageError("--create takes --technical-email (a new subscriber) or --subscriber (an existing one), not both", EVENTS_HELP);
  if (email !== undefined) {
    if (!emailSchema.safeParse(email).success) throw new UsageError(`--technical-email: '${email}' is not an email address`, EVENTS_HELP);
    return { technicalEmail: email };
  }
  if (subscriber !== undefined) {
    if (subscriber.trim() === "") throw new UsageError("--subscriber must not be empty", EVENTS_HELP);
    return { subscriberId: subscriber.trim() };
  }
  throw new UsageError(
    "--create needs --technical-email EMAIL (to create a subscriber) or --subscriber ID (to use an existing one)",
    EVENTS_HELP,
  );
}

export async function runEventsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(
    argv,
    io,
    {
      ...sharedOptions("config", "project"),
      url: { type: "string" },
      create: { type: "boolean" },
      "technical-email": { type: "string" },
      subscriber: { type: "string" },
    },
    EVENTS_HELP,
  );
  if (parsed === null) return 0;
  const { values } = parsed;
  const { configPath, projectId } = projectArgsOf(values, io.env, EVENTS_HELP);
  const base = requireString(values.url, "--url", EVENTS_HELP);
  const subscriber = subscriberChoiceOf(values.create === true, values["technical-email"], values.subscriber);
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
  if (subscriber !== undefined) {
    const redactor = redactorOfSettings(settings);
    const logger = createLogger({ level: settings.log_level, redactor, destination: io.stderr });
    const created = await withApp(settings, { logger, signal: io.signal }, async (app) =>
      createEventSubscription({
        project,
        events,
        receiverUrl: url.toString(),
        subscriber,
        session: await app.eventPlatform(project.id),
        redactor,
        io,
      }),
    );
    writeLine(io.stdout, JSON.stringify(created, null, 2));
    io.stderr.write("The platform activates the subscription within a few minutes; then PIM changes reach the worker as events.\n");
    return 0;
  }
  const subscription = {
    type: "https",
    url: url.toString(),
    events: SUBSCRIBED_EVENT_TYPES,
    secret: {
      primary: `projects[id=${projectId}].pim.events.secret`,
      ...(events.secondary_secret === undefined ? {} : { secondary: `projects[id=${projectId}].pim.events.secondary_secret` }),
    },
    ...(events.subject === undefined ? {} : { subject: events.subject }),
    pim_url: project.pim.url,
  };
  writeLine(io.stdout, JSON.stringify(subscription, null, 2));
  return 0;
}
