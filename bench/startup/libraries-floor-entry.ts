/**
 * The start-up benchmark's floor: a program that starts as the CLI does (compile cache, plain
 * msgpack) and loads the libraries every `jobs list` needs (zod, yaml, BullMQ with ioredis, pino),
 * then ends. It connects to nothing and builds no settings schema: no command that reads a config
 * and Redis can start faster than this with these libraries. Bundled like the CLI by
 * `build-libraries-floor.ts`.
 */
import { enableCompileCache } from "../../src/cli/enable-compile-cache.js";
import { preferPlainMsgpack } from "../../src/cli/prefer-plain-msgpack.js";

enableCompileCache();
preferPlainMsgpack(process.env);
const [{ z }, { parse }, { Queue }, { pino }] = await Promise.all([import("zod"), import("yaml"), import("bullmq"), import("pino")]);
// Each one used, so that the bundler keeps what a command evaluates.
z.object({ key: z.string() }).parse(parse("key: value"));
if (typeof Queue !== "function" || typeof pino !== "function") process.exitCode = 1;
