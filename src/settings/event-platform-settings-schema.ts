import { z } from "zod";
import { PARSED_ONCE } from "./parsed-once.js";

/** The Event Platform's REST base as Akeneo publishes it (Event Platform, "Getting started"). */
export const PUBLISHED_EVENT_PLATFORM_URL = "https://event.prd.sdk.akeneo.cloud/api/v1";

/**
 * Hosts that never leave the machine: a plain-HTTP platform URL is accepted only for them (the
 * simulator in tests). Anywhere else the PIM token and the subscription's secrets would cross the
 * network in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function platformUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be a URL";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return undefined;
  return "must be an https URL (plain http only on a loopback host such as 127.0.0.1)";
}

/** `event_platform`: where `pim-sync events --create` creates subscriptions (src/upstreams/event-platform/). */
export const eventPlatformSettingsSchema = z
  .strictObject({
    url: z
      .string()
      .trim()
      .superRefine((text, ctx) => {
        const problem = platformUrlProblem(text);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
      })
      .default(PUBLISHED_EVENT_PLATFORM_URL)
      .describe(
        "The Akeneo Event Platform's REST API base (`pim-sync events --create` adds `/subscriber...`). https only; plain http is accepted for a loopback host (a simulator).",
      ),
  })
  .describe("The Akeneo Event Platform's API, used only by `pim-sync events --create` (docs/pim-events.md).");

export type EventPlatformSettings = z.output<typeof eventPlatformSettingsSchema>;
export const DEFAULT_EVENT_PLATFORM_SETTINGS: EventPlatformSettings = eventPlatformSettingsSchema.parse({}, PARSED_ONCE);
