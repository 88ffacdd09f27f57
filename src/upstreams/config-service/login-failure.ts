import { z } from "zod";
import { HttpError } from "../../infra/http/http-error.js";

/** DRF's answer to a refused login: `{"non_field_errors": ["Unable to log in with provided credentials."]}`. */
const drfErrorsSchema = z.object({ non_field_errors: z.array(z.string()).min(1) });

const MAX_REASON_CHARS = 200;

/**
 * The error a failed service login becomes: method, URL, status and, at most, DRF's
 * `non_field_errors` message, and only when it does not contain a credential that was sent.
 * Nothing else of the answer is kept (not even as `bodyExcerpt`): a login endpoint may echo
 * the submitted password or the token it made.
 */
export function loginFailure(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof HttpError) || error.code !== "HTTP_STATUS") return error;
  const reason = safeReason(error.bodyExcerpt, secrets);
  return new HttpError(
    {
      code: error.code,
      upstream: error.upstream,
      method: error.method,
      url: error.url,
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      transient: error.transient,
    },
    `service login refused: ${error.status ?? "no status"}${reason === null ? "" : ` (${reason})`}`,
  );
}

function safeReason(body: string | undefined, secrets: readonly string[]): string | null {
  if (body === undefined) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return null;
  }
  const parsed = drfErrorsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const reason = parsed.data.non_field_errors.join(" ");
  const lower = reason.toLowerCase();
  if (reason.length > MAX_REASON_CHARS || secrets.some((secret) => secret !== "" && lower.includes(secret.toLowerCase()))) return null;
  return reason;
}
