import { PassThrough } from "node:stream";
import type { CliIo } from "../../src/cli/cli-io.js";

/** A CliIo whose output is kept as text. */
export function captureIo(env: Record<string, string | undefined> = {}): CliIo & { out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough() as unknown as NodeJS.WriteStream;
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  (stderr as unknown as PassThrough).on("data", (chunk: Buffer) => (err += chunk.toString()));
  return { stdout, stderr, env, out: () => out, err: () => err };
}
