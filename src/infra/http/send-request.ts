import type { Dispatcher } from "undici";
import dispatcherRequest from "undici/lib/api/api-request.js";
import { parseURL } from "undici/lib/core/util.js";

/**
 * undici's `request(url, options)` for a caller that always names its dispatcher, without
 * loading undici's index: the index loads every part of undici (fetch, WebSocket, the mock
 * agents, the caches) as it starts: over a quarter of the JavaScript a `plan` loaded
 * (docs/cli.md, "Start time"). It does what the index's `request` does when given a dispatcher and no `path`: the
 * same URL check, then the dispatcher's request with the URL split into origin and path.
 */
export function sendRequest(
  url: URL,
  options: Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & {
    readonly method: Dispatcher.HttpMethod;
    readonly dispatcher: Dispatcher;
  },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const checked = parseURL(url);
  return dispatcherRequest.call(dispatcher, {
    ...rest,
    origin: checked.origin,
    path: checked.search ? `${checked.pathname}${checked.search}` : checked.pathname,
  });
}
