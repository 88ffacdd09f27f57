/** Builders for the replies routes return; they keep status, headers and body together. */
import type { SimReply } from "./sim-request.js";

type Headers = Readonly<Record<string, string>>;

export function jsonReply(status: number, body: unknown, headers: Headers = {}): SimReply {
  return {
    kind: "reply",
    status,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

export function textReply(status: number, contentType: string, body: string, headers: Headers = {}): SimReply {
  return { kind: "reply", status, headers: { "content-type": contentType, ...headers }, body };
}

/** 201/204 answers: no body at all, as the PIM sends them. */
export function emptyReply(status: number, headers: Headers = {}): SimReply {
  return { kind: "reply", status, headers, body: "" };
}

/** Close the socket without answering: what a crashed proxy or a reset looks like to a client. */
export const dropReply: SimReply = { kind: "drop" };
