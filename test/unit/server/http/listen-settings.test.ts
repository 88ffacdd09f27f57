import { describe, expect, it } from "vitest";
import { listenSettingsOf } from "../../../../src/server/http/listen-settings.js";
import { settingsSchema } from "../../../../src/settings/settings-schema.js";

const PROJECT = {
  id: 1,
  pim: { url: "http://pim", client_id: "c", secret: "s", username: "u", password: "p" },
  service: { url: "http://svc", token: "t" },
};
const TOKEN = "a-trigger-token-of-16+";

function listenOf(extra: Record<string, unknown>) {
  return listenSettingsOf(settingsSchema.parse({ projects: [PROJECT], ...extra }));
}

describe("where the worker's HTTP server listens", () => {
  it("serves nothing without `server` or `trigger`", () => {
    expect(listenOf({})).toBeNull();
  });

  it("`server` alone: its host and port, defaults for the rest, nothing deprecated", () => {
    expect(listenOf({ server: { port: 9100 } })).toMatchObject({ host: "127.0.0.1", port: 9100, max_connections: 256, deprecations: [] });
  });

  it("`trigger` alone keeps its host and port (the deprecated aliases), and says so", () => {
    const listen = listenOf({ trigger: { host: "0.0.0.0", port: 9200, token: TOKEN } });
    expect(listen).toMatchObject({ host: "0.0.0.0", port: 9200 });
    expect(listen?.deprecations).toEqual(["trigger.host is deprecated: use server.host", "trigger.port is deprecated: use server.port"]);
  });

  it("`trigger` with only its token listens on the default address, nothing deprecated", () => {
    expect(listenOf({ trigger: { token: TOKEN } })).toMatchObject({ host: "127.0.0.1", port: 8090, deprecations: [] });
  });

  it("`server` wins over the aliases, which are reported as ignored", () => {
    const listen = listenOf({ server: { port: 9100 }, trigger: { port: 9200, token: TOKEN } });
    expect(listen?.port).toBe(9100);
    expect(listen?.deprecations).toEqual(["trigger.port is deprecated and ignored: server.port is set"]);
  });
});
