import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEventPlatformSimulator, type EventPlatformSimulator } from "../../../sim/event-platform/event-platform-simulator.js";

const HEADERS = {
  "content-type": "application/json",
  "x-pim-url": "https://pim.example.com",
  "x-pim-token": "token-1",
  "x-pim-client-id": "client-1",
};

describe("Event Platform simulator", () => {
  let platform: EventPlatformSimulator;

  beforeEach(async () => {
    platform = await startEventPlatformSimulator();
  });
  afterEach(async () => {
    await platform.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = HEADERS) =>
    fetch(`${platform.apiUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });

  async function subscriber(): Promise<string> {
    const answer = await post("/subscriber", { name: "n", contact: { technical_email: "ops@example.com" } });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as { id: string; subject: string; client_id: string; status: string };
    expect(body).toMatchObject({ subject: "https://pim.example.com", client_id: "client-1", status: "active" });
    return body.id;
  }

  it("refuses a call without one of the three X-PIM headers (401), or a bad subscriber body (400)", async () => {
    for (const missing of ["x-pim-url", "x-pim-token", "x-pim-client-id"]) {
      const headers = Object.fromEntries(Object.entries(HEADERS).filter(([name]) => name !== missing));
      expect((await post("/subscriber", { name: "n", contact: { technical_email: "ops@example.com" } }, headers)).status, missing).toBe(
        401,
      );
    }
    expect((await post("/subscriber", { name: "n", contact: { technical_email: "nope" } })).status).toBe(400);
    expect(platform.subscribers()).toEqual([]);
  });

  it("ties a subscriber to its PIM and connection, and checks the destination with HEAD", async () => {
    const id = await subscriber();
    const body = {
      source: "pim",
      subject: "https://pim.example.com",
      events: ["com.akeneo.pim.v1.attribute.created"],
      type: "https",
      config: { url: `${platform.url}/nowhere`, secret: { primary: "p" } },
    };
    expect((await post(`/subscriber/${id}/subscription`, body, { ...HEADERS, "x-pim-client-id": "client-2" })).status).toBe(403);
    expect((await post("/subscriber/unknown/subscription", body)).status).toBe(404);
    expect((await post(`/subscriber/${id}/subscription`, { ...body, type: "http" })).status).toBe(400);
    // The simulator's own unknown path answers 404 to HEAD: refused, nothing stored.
    const refused = await post(`/subscriber/${id}/subscription`, body);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("answered 404, not 200");
    expect(platform.subscriptions()).toEqual([]);
  });
});
