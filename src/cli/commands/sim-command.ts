import { z } from "zod";
import { startSimulators } from "../../../sim/start-simulators.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { readCommandArgs } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const SIM_HELP = `Usage: pim-sync sim [--catalog FILE] [--host H] [--pim-port N] [--service-port N]
                    [--activation-port N] [--latency-ms N] [--pim-sparse]
                    [--events-to URL --events-secret SECRET]
                    [--notifications-to URL --notifications-secret SECRET]
       pim-sync sim change ATTRIBUTE OPTION [--label LOCALE=TEXT]... [--delete]   (see sim change --help)

Starts the PIM, configuration-service and Activation API simulators on 127.0.0.1 with a sample
catalogue (config/sim-catalog.json by default), prints their URLs and credentials, and runs
until interrupted (Ctrl-C). Use config/sim.yaml to point pim-sync at them, or
config/sim-worker.yaml for a worker (with --events-to below, it receives the PIM's events).
\`pim-sync sim change\` changes the running simulator's catalogue from another terminal.

Options:
  --catalog FILE      catalogue JSON (see config/sim-catalog.json for the format)
  --host H            address to listen on (default 127.0.0.1; 0.0.0.0 in a container)
  --pim-port N        PIM simulator port (default 8081; 0 picks a free one)
  --service-port N    configuration-service simulator port (default 8082; 0 picks a free one)
  --activation-port N Activation API simulator port (default 8083; 0 picks a free one)
  --latency-ms N      latency added to every response (default 0)
  --pim-sparse        the PIM simulator leaves out every property Akeneo's API description
                      makes optional (token answers hold only the access token; see
                      sim/README.md), to try a client against the thinnest answers allowed
  --events-to URL     after each option or record change (through its API or \`sim change\`)
                      the PIM simulator posts the Akeneo Event Platform's signed CloudEvent
                      to URL, a worker's receiver: http://127.0.0.1:8090/v1/pim-events/67
  --events-secret S   the secret that signs them (X-AKENEO-SIGNATURE-PRIMARY): the project's
                      pim.events.secret (sim-events-secret-0123 in config/sim-worker.yaml)
  --notifications-to URL
                      the Event Platform's notification webhook: \`curl -X POST
                      <PIM simulator>/sim/subscription/suspend\` (or suspend-user, revoke,
                      resume) posts the signed notification of the subscription's new state
                      to URL (http://127.0.0.1:8090/v1/pim-event-notifications/67); while
                      suspended or revoked, the simulator's events are lost, as the platform's
  --notifications-secret S
                      the subscriber's notification secret that signs them: the project's
                      pim.events.notification_secret (or its secret when that is unset)
  -h, --help          show this help`;

function portOf(value: string | boolean | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag} must be a port number, got '${String(value)}'`, SIM_HELP);
  return port;
}

const postedEvent = z.object({ id: z.string(), type: z.string() });

/** `attribute-option.created <id>`: the event's type without Akeneo's prefix, and its id. */
function eventLabelOf(body: string): string {
  const event = postedEvent.safeParse(JSON.parse(body));
  return event.success ? `${event.data.type.replace(/^com\.akeneo\.pim\.v1\./, "")} ${event.data.id}` : "?";
}

function urlOf(value: string, flag: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  } catch {
    // Refused below, with the flag's name.
  }
  throw new UsageError(`${flag} must be an http(s) URL, got '${value}'`, SIM_HELP);
}

export async function runSimCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === "change") return (await import("./sim-change-command.js")).runSimChangeCommand(argv.slice(1), io);
  const parsed = readCommandArgs(
    argv,
    io,
    {
      catalog: { type: "string" },
      host: { type: "string" },
      "pim-port": { type: "string" },
      "service-port": { type: "string" },
      "activation-port": { type: "string" },
      "latency-ms": { type: "string" },
      "pim-sparse": { type: "boolean" },
      "events-to": { type: "string" },
      "events-secret": { type: "string" },
      "notifications-to": { type: "string" },
      "notifications-secret": { type: "string" },
    },
    SIM_HELP,
  );
  if (parsed === null) return 0;
  const { values } = parsed;
  const eventsTo = values["events-to"] === undefined ? undefined : urlOf(values["events-to"], "--events-to");
  const eventsSecret = values["events-secret"];
  if (eventsTo !== undefined && (eventsSecret === undefined || eventsSecret === ""))
    throw new UsageError("--events-to needs --events-secret: the receiver refuses unsigned events", SIM_HELP);
  if (eventsTo === undefined && eventsSecret !== undefined) throw new UsageError("--events-secret goes with --events-to", SIM_HELP);
  const notificationsTo = values["notifications-to"] === undefined ? undefined : urlOf(values["notifications-to"], "--notifications-to");
  const notificationsSecret = values["notifications-secret"];
  if (notificationsTo !== undefined && (notificationsSecret === undefined || notificationsSecret === ""))
    throw new UsageError("--notifications-to needs --notifications-secret: the receiver refuses unsigned notifications", SIM_HELP);
  if (notificationsTo === undefined && notificationsSecret !== undefined)
    throw new UsageError("--notifications-secret goes with --notifications-to", SIM_HELP);
  const sims = await startSimulators({
    catalogPath: values.catalog,
    host: values.host,
    pimPort: portOf(values["pim-port"], "--pim-port", 8081),
    servicePort: portOf(values["service-port"], "--service-port", 8082),
    activationPort: portOf(values["activation-port"], "--activation-port", 8083),
    latencyMs: portOf(values["latency-ms"], "--latency-ms", 0),
    pimShape: values["pim-sparse"] === true ? "sparse" : "full",
  });
  if (eventsTo !== undefined && eventsSecret !== undefined)
    sims.pim.events.configure({
      url: eventsTo,
      secret: eventsSecret,
      // One line per event, so a user sees each change leave and how the worker took it.
      onAnswered: ({ body, status }) => writeLine(io.stdout, `PIM event ${eventLabelOf(body)} posted: ${status}`),
      onFailed: ({ body, reason }) => writeLine(io.stderr, `PIM event ${eventLabelOf(body)} not delivered to ${eventsTo}: ${reason}`),
    });
  if (notificationsTo !== undefined && notificationsSecret !== undefined)
    sims.pim.subscription.configure({ url: notificationsTo, secret: notificationsSecret, subject: sims.pim.url });
  const sparse = values["pim-sparse"] === true ? "; sparse answers" : "";
  writeLine(
    io.stdout,
    `PIM simulator:                   ${sims.pim.url}  (client sim-client / sim-secret, user sim-user / sim-password${sparse})`,
  );
  writeLine(io.stdout, `Configuration-service simulator: ${sims.service.url}  (token sim-service-token)`);
  writeLine(
    io.stdout,
    `Activation API simulator:        ${sims.activation.url}  (pim_connection_id sim-pim-connection, access_token sim-activation-token; webhook stand-in at /webhook/orders, token sim-webhook-token)`,
  );
  if (eventsTo !== undefined)
    writeLine(io.stdout, `PIM events:                      posted to ${eventsTo}, signed with the --events-secret given`);
  if (notificationsTo !== undefined)
    writeLine(
      io.stdout,
      `Subscription notifications:      POST ${sims.pim.url}/sim/subscription/suspend (or suspend-user, revoke, resume) posts one to ${notificationsTo}`,
    );
  writeLine(io.stdout, "Press Ctrl-C to stop.");
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) resolve();
    io.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await sims.close();
  return 0;
}
