import { describe, expect } from "vitest";
import { runSimCommand, SIM_HELP } from "../../../../src/cli/commands/sim-command.js";
import { captureIo } from "../../../support/capture-io.js";
import { test } from "../../../support/fixtures.js";
import { waitFor } from "../../../support/wait-for.js";
import { SIM_FREE_PORTS } from "../../../support/process-cli.js";

/** Runs `pim-sync sim` in this process until the test is done with it; hands back the PIM URL and its output. */
async function withSim<T>(flags: readonly string[], use: (pimUrl: string, output: string) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const io = { ...captureIo(), signal: stop.signal };
  const run = runSimCommand([...flags, ...SIM_FREE_PORTS], io);
  try {
    await waitFor(() => io.out().includes("Press Ctrl-C to stop."), { timeoutMs: 15_000, what: "the simulators" });
    const pimUrl = /PIM simulator:\s+(http:\/\/\S+)/.exec(io.out())?.[1];
    if (pimUrl === undefined) throw new Error(`no PIM URL in the output:\n${io.out()}`);
    return await use(pimUrl, io.out());
  } finally {
    stop.abort();
    expect(await run).toBe(0);
  }
}

async function tokenAnswerKeys(pimUrl: string): Promise<string[]> {
  const response = await fetch(`${pimUrl}/api/oauth/v1/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("sim-client:sim-secret").toString("base64")}`, "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", username: "sim-user", password: "sim-password" }),
  });
  return Object.keys((await response.json()) as object).sort();
}

describe("pim-sync sim --pim-sparse", () => {
  test("the PIM simulator answers sparsely, and says so", async () => {
    await withSim(["--pim-sparse"], async (pimUrl, output) => {
      expect(output).toContain("sparse answers");
      expect(await tokenAnswerKeys(pimUrl)).toEqual(["access_token"]);
    });
  });

  test("without it, full answers", async () => {
    await withSim([], async (pimUrl, output) => {
      expect(output).not.toContain("sparse");
      expect(await tokenAnswerKeys(pimUrl)).toEqual(["access_token", "expires_in", "refresh_token", "scope", "token_type"]);
    });
  });

  test("the help names the flag", () => {
    expect(SIM_HELP).toContain("--pim-sparse");
  });
});
