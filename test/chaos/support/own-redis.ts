/**
 * A redis-server of the test's own, on a free port, without persistence: stopping it loses
 * everything, as a crashed Redis without AOF/RDB does. Never the shared test Redis.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { waitFor } from "../../support/process-poll.js";

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILLs the server (no shutdown save: its data is gone) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Kills it if running; for afterEach. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  async function start(): Promise<void> {
    const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    child = started;
    exited = new Promise((resolve) => started.once("exit", () => resolve()));
    await waitFor(
      async () => {
        const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        probe.on("error", () => undefined); // a refused probe is "not yet", reported by connect()
        try {
          await probe.connect();
          return (await probe.ping()) === "PONG";
        } finally {
          probe.disconnect();
        }
      },
      { timeoutMs: 10_000, intervalMs: 50, what: `redis-server on port ${port} to answer PING` },
    );
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    running.kill("SIGKILL");
    await exited;
  }

  await start();
  return { port, url, kill, start, close: kill };
}
