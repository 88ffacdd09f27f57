import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../infra/log/create-logger.js";
import { createApp } from "../../app/create-app.js";
import { settingsSchema } from "../../settings/settings-schema.js";
import { startSimulators } from "../../../sim/start-simulators.js";
import { runReviewedSync } from "../../features/sync/held/run-reviewed-sync.js";
import { cliOrigin } from "../../stores/history/run-origin.js";
import type { SyncReport } from "../../features/sync/sync-report.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { runActivationDemo } from "./activation-demo.js";
import { readCommandArgs } from "../parse-command-args.js";
import { renderSyncReport } from "../render-sync-report.js";
import type { Logger } from "pino";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";

export const DEMO_HELP = `Usage: pim-sync demo

Starts both simulators with the sample catalogue, runs a first sync of project 67 (state in a
temporary folder, no Redis needed), shows what the configuration service now holds, then syncs
again to show that nothing is rewritten when the PIM has not changed. Then, against the
Activation API simulator: one orders pull (and a second that finds nothing new) and one offer push.`;

const DEMO_PROJECT = 67;

export const DEMO_NEXT_STEPS = `
Next: run the pieces yourself (see README, "Try the worker"):
  node dist/bin/pim-sync.js sim                                              # terminal 1: the simulators
  node dist/bin/pim-sync.js plan --config config/sim.yaml --project 67       # terminal 2: a dry run, no Redis
  node dist/bin/pim-sync.js worker --config config/sim-worker.yaml           # needs Redis on 127.0.0.1:6379
  node dist/bin/pim-sync.js enqueue sync --config config/sim-worker.yaml --project 67`;

export async function runDemoCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (readCommandArgs(argv, io, {}, DEMO_HELP) === null) return 0;
  const sims = await startSimulators({ pimPort: 0, servicePort: 0 });
  const stateDir = await mkdtemp(join(tmpdir(), "pim-sync-demo-"));
  let logger: Logger | undefined;
  try {
    const settings = settingsSchema.parse({
      state_dir: stateDir,
      projects: [
        {
          id: DEMO_PROJECT,
          pim: { url: sims.pim.url, client_id: "sim-client", secret: "sim-secret", username: "sim-user", password: "sim-password" },
          service: { url: sims.service.url, token: "sim-service-token" },
        },
      ],
    });
    const project = settings.projects[0];
    if (!project) throw new Error("demo settings have no project");
    const runLogger = createLogger({ level: "warn", redactor: redactorOfSettings(settings) });
    logger = runLogger;
    const runOnce = async (title: string): Promise<SyncReport> => {
      // Each run its own app: the second sync starts from the state files the first one closed.
      const app = createApp(settings, { logger: runLogger });
      try {
        const runtime = await app.project(project.id);
        const report = await runReviewedSync(runtime, settings, runLogger, {
          origin: cliOrigin("demo"),
          full: false,
          allowMassDelete: false,
          dryRun: false,
          signal: io.signal,
        });
        writeLine(io.stdout, `\n=== ${title} ===`);
        writeLine(io.stdout, renderSyncReport(report));
        return report;
      } finally {
        await app.stop();
      }
    };

    writeLine(io.stdout, `PIM simulator at ${sims.pim.url}, configuration-service simulator at ${sims.service.url}`);
    const first = await runOnce("First sync: every derived collection is replaced");
    const derived = new Set(first.collections.map((outcome) => outcome.collection));
    writeLine(io.stdout, "\n=== What the configuration service holds for project 67 ===");
    for (const collection of sims.service.collections().filter((c) => c.project === DEMO_PROJECT)) {
      const sample = collection.options
        .slice(0, 4)
        .map(
          (o) =>
            `${o.name}${
              Object.keys(o.label).length > 0
                ? ` (${Object.entries(o.label)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join(", ")})`
                : ""
            }`,
        )
        .join("; ");
      writeLine(
        io.stdout,
        `  ${collection.name}: ${collection.options.length} option(s)${sample ? `: ${sample}${collection.options.length > 4 ? "; ..." : ""}` : ""}`,
      );
      if (!derived.has(collection.name)) {
        writeLine(
          io.stdout,
          `    (untouched: no PIM attribute derives '${collection.name}', so it is a collection kept by hand in the service; pim-sync never writes it)`,
        );
      }
    }
    sims.pim.clearRequests();
    sims.service.clearRequests();
    await runOnce("Second sync: the PIM did not change, so nothing is written");
    const writes = sims.service.requests.filter((request) => request.method !== "GET").length;
    writeLine(io.stdout, `\nWrites received by the configuration service during the second sync: ${writes}`);
    await runActivationDemo({ activationUrl: sims.activation.url, stateDir, sim: sims.activation, io });
    writeLine(io.stdout, DEMO_NEXT_STEPS);
    return 0;
  } finally {
    await sims.close();
    await rm(stateDir, { recursive: true, force: true });
    logger?.flush();
  }
}
