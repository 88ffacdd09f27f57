import { startSimulators } from "../../sim/start-simulators.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { parseCommandArgs } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const SIM_HELP = `Usage: pim-sync sim [--catalog FILE] [--host H] [--pim-port N] [--service-port N]
                    [--activation-port N] [--latency-ms N] [--pim-sparse]

Starts the PIM, configuration-service and Activation API simulators on 127.0.0.1 with a sample
catalogue (config/sim-catalog.json by default), prints their URLs and credentials, and runs
until interrupted (Ctrl-C). Use config/sim.yaml to point pim-sync at them.

Options:
  --catalog FILE      catalogue JSON (see config/sim-catalog.json for the format)
  --host H            address to listen on (default 127.0.0.1; 0.0.0.0 in a container)
  --pim-port N        PIM simulator port (default 8081; 0 picks a free one)
  --service-port N    configuration-service simulator port (default 8082; 0 picks a free one)
  --activation-port N Activation API simulator port (default 8083; 0 picks a free one)
  --latency-ms N      latency added to every response (default 0)
  --pim-sparse        the PIM simulator leaves out every property Akeneo's API description
                      makes optional (token answers hold only the access token; see
                      src/sim/README.md), to try a client against the thinnest answers allowed
  -h, --help          show this help`;

function portOf(value: string | boolean | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag} must be a port number, got '${String(value)}'`, SIM_HELP);
  return port;
}

export async function runSimCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      catalog: { type: "string" },
      host: { type: "string" },
      "pim-port": { type: "string" },
      "service-port": { type: "string" },
      "activation-port": { type: "string" },
      "latency-ms": { type: "string" },
      "pim-sparse": { type: "boolean" },
    },
    SIM_HELP,
  );
  if (values.help) {
    writeLine(io.stdout, SIM_HELP);
    return 0;
  }
  const sims = await startSimulators({
    catalogPath: values.catalog,
    host: values.host,
    pimPort: portOf(values["pim-port"], "--pim-port", 8081),
    servicePort: portOf(values["service-port"], "--service-port", 8082),
    activationPort: portOf(values["activation-port"], "--activation-port", 8083),
    latencyMs: portOf(values["latency-ms"], "--latency-ms", 0),
    pimShape: values["pim-sparse"] === true ? "sparse" : "full",
  });
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
  writeLine(io.stdout, "Press Ctrl-C to stop.");
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) resolve();
    io.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await sims.close();
  return 0;
}
