import type { Dispatcher } from "undici";
import type { z } from "zod";
import { messageOf } from "../../core/errors/message-of.js";
import type { Redactor } from "../secrets/redactor.js";
import type { HttpRequest, HttpResponse } from "./http-request.js";
import { describeIssues, HttpError, isTransientStatus } from "./http-error.js";
import { parseRetryAfterMs } from "./parse-retry-after.js";
import { redirectError } from "./redirect-error.js";

const BODY_EXCERPT_CHARS = 300;
/** Bodies longer than this are cut before they are scrubbed (only the excerpt is kept anyway). */
const BODY_SCRUB_CHARS = 65_536;

function isHtml(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value !== undefined && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(value);
}

/**
 * An upstream's answer as the request's schema reads it, or the HttpError it amounts to: a
 * redirect (never followed, never a success), an error status (with its Retry-After and a
 * scrubbed excerpt), an HTML page where the API's answer was due, an unreadable body or one of
 * the wrong shape. The body is always consumed, so the connection goes back to the pool.
 */
export async function readHttpAnswer<S extends z.ZodType>(
  response: Dispatcher.ResponseData,
  req: HttpRequest<S>,
  context: {
    readonly base: { readonly upstream: string; readonly method: string; readonly url: string };
    /** Made only when an error is built: what the request sent that an echo could carry back. */
    readonly redactor: () => Redactor;
    /** The request's time limit, running while the body arrives. */
    readonly timeout: AbortSignal;
    readonly timeoutMs: number;
    /** A webhook's receiver may answer an HTML page; an API may not. */
    readonly htmlMayAnswer: boolean;
  },
): Promise<HttpResponse<z.infer<S>>> {
  const { base, redactor, timeout } = context;
  const { statusCode } = response;
  if (statusCode >= 300 && statusCode < 400) {
    // Never followed (credentials stay on the configured origin), never a success: a write
    // answered 307 was not made. The body is not kept: it is a proxy's page at best.
    await response.body.dump().catch(() => undefined);
    throw redactor().redactError(redirectError(base, statusCode, response.headers.location));
  }
  if (statusCode >= 400) {
    const text = await response.body.text().catch(() => "");
    const retryAfterMs = parseRetryAfterMs(response.headers["retry-after"], Date.now());
    // Scrubbed whole, then cut: cutting first could leave the start of a secret in the excerpt.
    const excerpt = redactor().redact(text.slice(0, BODY_SCRUB_CHARS)).slice(0, BODY_EXCERPT_CHARS);
    throw redactor().redactError(
      new HttpError(
        {
          ...base,
          code: "HTTP_STATUS",
          status: statusCode,
          bodyExcerpt: excerpt,
          retryAfterMs: statusCode === 429 || statusCode === 503 ? retryAfterMs : undefined,
          transient: isTransientStatus(statusCode),
        },
        `${statusCode} ${excerpt}`,
      ),
    );
  }
  if (!context.htmlMayAnswer && isHtml(response.headers["content-type"])) {
    await response.body.dump().catch(() => undefined);
    throw new HttpError(
      { ...base, code: "HTTP_RESPONSE_SHAPE", status: statusCode, transient: false },
      `answered ${statusCode} with an HTML page, not the API's answer (a proxy or a maintenance page?); not taken as a success`,
    );
  }

  let raw: unknown;
  try {
    if (req.responseType === "none") {
      await response.body.dump();
      raw = undefined;
    } else {
      const text = await response.body.text();
      raw = req.responseType === "text" ? text : text === "" ? undefined : (JSON.parse(text) as unknown);
    }
  } catch (cause) {
    const timedOut = timeout.aborted;
    // A JSON parser's message quotes the start of the body: scrubbed like any excerpt.
    throw redactor().redactError(
      new HttpError(
        { ...base, code: timedOut ? "HTTP_TIMEOUT" : "HTTP_RESPONSE_SHAPE", status: statusCode, transient: timedOut, cause },
        timedOut ? `body not received within ${context.timeoutMs} ms` : `unreadable response body: ${messageOf(cause)}`,
      ),
    );
  }
  const parsed = req.schema.safeParse(raw);
  if (!parsed.success) {
    throw redactor().redactError(
      new HttpError(
        { ...base, code: "HTTP_RESPONSE_SHAPE", status: statusCode, transient: false, cause: parsed.error },
        `unexpected response shape: ${describeIssues(parsed.error.issues)}`,
      ),
    );
  }
  return { status: statusCode, data: parsed.data as z.infer<S> };
}
