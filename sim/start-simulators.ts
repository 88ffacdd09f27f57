/**
 * Starts the simulators (PIM and service on one catalogue, and the Activation API's sample), the service linked to the PIM (so add-options reaches
 * it): what `npm run demo`, `pim-sync sim` and benchmarks use.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { loadSimCatalog } from "./catalog/catalog-file.js";
import { startConfigServiceSimulator } from "./config-service/config-service-simulator.js";
import type { ConfigServiceSimulator } from "./config-service/config-service-simulator.js";
import { startPimSimulator } from "./pim/pim-simulator.js";
import { startActivationSimulator, type ActivationSimulator } from "./activation/activation-simulator.js";
import type { PimSimulator } from "./pim/pim-simulator.js";
import type { PimAnswerShape } from "./pim/resource-forms.js";

export interface StartSimulatorsOptions {
  /** Catalogue JSON; `config/sim-catalog.json` of the package when left out. */
  readonly catalogPath?: string;
  /** 0 (the default) picks a free port. */
  readonly pimPort?: number;
  readonly servicePort?: number;
  readonly activationPort?: number;
  readonly host?: string;
  readonly latencyMs?: number;
  /** The PIM simulator's answers: `full` (the default) or `sparse` (pim/resource-forms.ts). */
  readonly pimShape?: PimAnswerShape;
}

export interface RunningSimulators {
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly activation: ActivationSimulator;
  close(): Promise<void>;
}

export async function startSimulators(options: StartSimulatorsOptions = {}): Promise<RunningSimulators> {
  const catalog = await loadSimCatalog(options.catalogPath ?? defaultCatalogPath());
  const host = options.host ?? "127.0.0.1";
  const latencyMs = options.latencyMs ?? 0;
  const pim = await startPimSimulator({ catalog: catalog.pim, host, port: options.pimPort ?? 0, latencyMs, shape: options.pimShape });
  let service: ConfigServiceSimulator;
  try {
    service = await startConfigServiceSimulator({ catalog: catalog.service, pim, host, port: options.servicePort ?? 0, latencyMs });
  } catch (error) {
    await pim.close();
    throw error;
  }
  let activation: ActivationSimulator;
  try {
    activation = await startActivationSimulator({ host, port: options.activationPort ?? 0, latencyMs });
  } catch (error) {
    await Promise.all([service.close(), pim.close()]);
    throw error;
  }
  return {
    pim,
    service,
    activation,
    async close() {
      await Promise.all([activation.close(), service.close(), pim.close()]);
    },
  };
}

/**
 * The sample catalogue ships in the package's `config/`. The package root is the nearest folder
 * above this file holding package.json, which holds from `sim/` and from `dist/sim/` alike.
 */
export function defaultCatalogPath(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, "package.json"))) return join(directory, "config", "sim-catalog.json");
    const parent = resolve(directory, "..");
    if (parent === directory) throw new Error("cannot find the package root (no package.json above the simulators)");
    directory = parent;
  }
}
