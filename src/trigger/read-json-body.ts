import type { IncomingMessage } from "node:http";

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

/** Reads a JSON request body of at most `maxBytes`, or throws a BodyError with the status to send. */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = request.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) throw new BodyError(415, "Content-Type must be application/json");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new BodyError(413, `body larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new BodyError(400, "body is not valid JSON");
  }
}
