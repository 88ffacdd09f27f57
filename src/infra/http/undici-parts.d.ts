/**
 * Types for the three files of undici that pim-sync imports one by one instead of its index
 * (send-request.ts, create-agent.ts): the index loads all of undici (fetch, WebSocket, the mock
 * agents, the caches) for the Agent and `request` pim-sync uses. undici has no `exports` map, so
 * these files can be imported by path; each is what the index itself exports under that name.
 */
declare module "undici/lib/dispatcher/agent.js" {
  import { Agent } from "undici";
  export default Agent;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";
  /** `Dispatcher.prototype.request`, called with the dispatcher as `this`. */
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

declare module "undici/lib/core/util.js" {
  /** undici's URL check: a URL of http: or https:, or an InvalidArgumentError. */
  export function parseURL(url: string | URL): URL;
}
