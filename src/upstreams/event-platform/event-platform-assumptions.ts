import { z } from "zod";

/**
 * Every choice pim-sync makes where the Akeneo Event Platform's API is not published (its
 * "Getting started" and "Concepts" pages give the headers, the two creating POSTs and their
 * bodies, and the subscriber's answer; not the rest). One module, mirrored by the section
 * "Event Platform API: assumptions" of docs/pim-events.md, so that the day the reference says
 * otherwise this is the file to change. Known facts live in the client; only guesses live here.
 */

/** The headers every call carries (published). Named here so that errors can name them, never their values. */
export const PLATFORM_HEADER_NAMES = { pimUrl: "x-pim-url", pimToken: "x-pim-token", clientId: "x-pim-client-id" } as const;

/**
 * The subscriber's name: not meaningful to the platform (it is for people reading its list), so
 * pim-sync names it after the project it is created for.
 */
export function subscriberNameOf(projectId: number): string {
  return `pim-sync project ${projectId}`;
}

/**
 * The subscription's `subject`: "the PIM URL" (published), taken as configured in the project's
 * `pim.url`, the same value sent as `X-PIM-URL`, so the subscriber and the subscription name the
 * same source. A trailing slash is removed: `https://pim.example.com/` and `https://pim.example.com`
 * are one PIM.
 */
export function subjectOf(pimUrl: string): string {
  return pimUrl.replace(/\/+$/, "");
}

// Neither listing endpoint is used: the subscriber is created (`--technical-email`) or named
// (`--subscriber ID`, e.g. the id a first `--create` printed), never looked up. So a second
// `--create` for the same project makes a second subscription: the command's help says so.

/**
 * The two creating POSTs are not idempotent (no idempotency key is published): a repeat after a
 * 5xx or a timeout could leave two subscribers or two subscriptions, and two subscriptions would
 * make the platform deliver every event twice. So only a 429 (refused before it was processed) is tried again, up
 * to `http.max_attempts`, after its Retry-After when it has one (at most `http.max_retry_after_ms`);
 * a 5xx or a timeout ends the command (exit 1) with advice to look in the platform before trying
 * again.
 */
export const CREATING_POSTS_ARE_IDEMPOTENT = false;

/**
 * The subscription POST's answer is not published: taken as a JSON object with at least a
 * non-empty `id` (a string, or a number written as its text), `status` read when it is a
 * non-empty string; every other field is kept unread. (The subscriber's answer is published:
 * event-platform-schemas.ts.)
 */
export const subscriptionAnswerSchema = z.looseObject({
  id: z.union([z.string().trim().min(1, "must not be empty"), z.number().transform(String)]),
  status: z.string().trim().min(1).optional().catch(undefined),
});

/** The status printed when the subscription's answer has none: activation takes minutes (published). */
export const STATUS_WHEN_UNSAID = "unknown (activation takes a few minutes)";

// Error bodies are not published: an error shows the status and an excerpt of the body, every
// secret and the token removed (src/infra/http/), since a platform may echo the request back.
