import { describe, expect, it } from "vitest";

import { defaultCatalogPath, startSimulators } from "../../../sim/start-simulators.js";
import { getJson, pimToken } from "./sim-test-helpers.js";

describe("startSimulators", () => {
  it("finds config/sim-catalog.json from the package root", () => {
    expect(defaultCatalogPath()).toMatch(/config[\\/]sim-catalog\.json$/);
  });

  it("starts both simulators on the sample catalogue, the service linked to the PIM", async () => {
    const sims = await startSimulators({ latencyMs: 1 });
    try {
      const token = (await pimToken(sims.pim.url)).access_token;
      const added = await fetch(`${sims.service.url}/api/v1/options_collections/5/add-options/`, {
        method: "PATCH",
        headers: { authorization: "Token sim-service-token", "content-type": "application/json" },
        body: JSON.stringify({ upsert_options: [{ name: "silver", label: { "en-US": "Silver" } }] }),
      });
      expect(added.status).toBe(200);
      const option = await getJson(`${sims.pim.url}/api/rest/v1/attributes/color/options/silver`, token);
      expect(option).toMatchObject({ status: 200, body: { code: "silver", labels: { en_US: "Silver" } } });
    } finally {
      await sims.close();
    }
    await expect(fetch(sims.pim.url)).rejects.toThrow();
  });
});
