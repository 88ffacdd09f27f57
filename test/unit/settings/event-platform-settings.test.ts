import { describe, expect, it } from "vitest";
import { eventPlatformSettingsSchema, PUBLISHED_EVENT_PLATFORM_URL } from "../../../src/settings/event-platform-settings-schema.js";

describe("event_platform settings", () => {
  it("defaults to the published base", () => {
    expect(eventPlatformSettingsSchema.parse({}).url).toBe(PUBLISHED_EVENT_PLATFORM_URL);
    expect(PUBLISHED_EVENT_PLATFORM_URL).toBe("https://event.prd.sdk.akeneo.cloud/api/v1");
  });

  it.each(["https://event.example.com/api/v1", "http://127.0.0.1:4000/api/v1", "http://localhost:4000/api/v1", "http://[::1]:4000/api/v1"])(
    "accepts %s",
    (url) => {
      expect(eventPlatformSettingsSchema.parse({ url }).url).toBe(url);
    },
  );

  it.each(["http://event.example.com/api/v1", "http://10.0.0.5/api/v1", "ftp://127.0.0.1/x", "not a url"])("refuses %s", (url) => {
    const result = eventPlatformSettingsSchema.safeParse({ url });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["url"]);
  });
});
