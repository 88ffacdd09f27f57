import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { waitFor } from "./worker-wait.js";

export interface OwnRedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL: its data is gone, nothing is saved). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Kills it if running. */
  close(): Promise<void>;
}

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (port === 0) throw new Error("no free loopback port");
  return port;
}

/** True when a Redis at `url` answers PING now (one attempt, no reconnecting). */
export async function answersPing(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A redis-server of the test's own, on a free loopback port, without persistence: killing it
 * and starting it again is a Redis that lost its data (what the shared test Redis must never
 * be put through).
 */
export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  const port = await freeLoopbackPort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    child = started;
    started.once("exit", () => {
      if (child === started) child = undefined;
    });
    await waitFor(() => answersPing(url), 10_000, `redis-server on port ${port} to answer`);
  }

  async function kill(): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, "exit");
    running.kill("SIGKILL");
    await exited;
  }

  await start();
  return { port, url, kill, start, close: kill };
}
