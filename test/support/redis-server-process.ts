import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { waitFor } from "./process-poll.js";

/**
 * A redis-server of the test's own, on a port of its choosing, that the test can stop and start
 * again (an outage). Nothing is saved to disk. Needs the `redis-server` binary (.ci/run installs it).
 */
export function redisServerOn(port: number): { start(): Promise<void>; stop(): Promise<void> } {
  let child: ChildProcess | undefined;

  async function answers(): Promise<boolean> {
    const probe = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on("error", () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === "PONG";
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  }

  return {
    async start() {
      const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
      let spawnError: Error | undefined;
      started.once("error", (error) => (spawnError = error));
      child = started;
      await waitFor(
        () => {
          if (spawnError) throw new Error(`cannot start redis-server (is it installed?): ${spawnError.message}`);
          return answers();
        },
        { timeoutMs: 10_000, what: `redis-server on port ${port}` },
      );
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill("SIGKILL");
      await exited;
      child = undefined;
    },
  };
}
