import { startConfigServiceSimulator, type ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { startPimSimulator, type PimSimulator } from "../../sim/pim/pim-simulator.js";
import { collectGarbage } from "../collect-garbage.js";
import { CATALOG_SIZES, type CatalogSizeName } from "./catalog-sizes.js";
import { materializeCatalog } from "./generate-catalog.js";
import { planCatalog } from "./plan-catalog.js";

type Simulators = { readonly pim: PimSimulator; readonly service: ConfigServiceSimulator };

/**
 * The PIM and configuration-service simulators holding `catalog`; a service that fails to start
 * takes the PIM down with it. The simulators keep their own copies: a caller that holds the
 * catalogue drops it afterwards, so the parent never keeps two of a 1M-option catalogue.
 */
export async function startSimulatorsFor(catalog: ReturnType<typeof materializeCatalog>, latencyMs: number): Promise<Simulators> {
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs });
  try {
    return { pim, service: await startConfigServiceSimulator({ catalog: catalog.service, pim, latencyMs }) };
  } catch (error) {
    await pim.close();
    throw error;
  }
}

/** The simulators holding a benchmark size's catalogue, generated here and dropped once they hold it. */
export async function startSizedSimulators(size: CatalogSizeName, seed: number, latencyMs: number): Promise<Simulators> {
  const simulators = await startSimulatorsFor(materializeCatalog(planCatalog(CATALOG_SIZES[size], seed)), latencyMs);
  collectGarbage();
  return simulators;
}
