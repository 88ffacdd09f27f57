import { startConfigServiceSimulator, type ConfigServiceSimulator } from "../../src/sim/config-service/config-service-simulator.js";
import { startPimSimulator, type PimSimulator } from "../../src/sim/pim/pim-simulator.js";
import { collectGarbage } from "../collect-garbage.js";
import { CATALOG_SIZES, type CatalogSizeName } from "./catalog-sizes.js";
import { materializeCatalog } from "./generate-catalog.js";
import { planCatalog } from "./plan-catalog.js";

/**
 * The PIM and configuration-service simulators holding a benchmark size's catalogue. The
 * generated catalogue is dropped once both hold their own copies, so a scenario's memory is the
 * simulators' and its own; a service that fails to start takes the PIM down with it.
 */
export async function startSizedSimulators(
  size: CatalogSizeName,
  seed: number,
  latencyMs: number,
): Promise<{ readonly pim: PimSimulator; readonly service: ConfigServiceSimulator }> {
  let catalog: ReturnType<typeof materializeCatalog> | null = materializeCatalog(planCatalog(CATALOG_SIZES[size], seed));
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs });
  let service: ConfigServiceSimulator;
  try {
    service = await startConfigServiceSimulator({ catalog: catalog.service, pim, latencyMs });
  } catch (error) {
    await pim.close();
    throw error;
  }
  catalog = null;
  collectGarbage();
  return { pim, service };
}
