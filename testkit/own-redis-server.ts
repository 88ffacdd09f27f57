import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomInt } from "node:crypto";
import { join } from "node:path";
import { Redis } from "ioredis";

export interface OwnRedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL: its data is gone, nothing is saved). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (the end of an outage). */
  start(): Promise<void>;
  /** Kills it if running. */
  close(): Promise<void>;
}

export interface OwnRedisServerOptions {
  /** More redis-server arguments (`--requirepass`, ...). */
  readonly args?: readonly string[];
  /** A cluster node: its bus port is chosen too, its node file goes into `dir`. */
  readonly cluster?: { readonly dir: string };
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
 * Candidate ports come from below Linux's ephemeral range (32768 and up), where every port-0
 * listener of the other tests lands, and above the ports services use by default.
 */
const CANDIDATE_PORTS = { from: 20_000, to: 32_000 } as const;
const START_ATTEMPTS = 20;
/** Generous: a loaded machine may take seconds to start a process. */
const READY_TIMEOUT_MS = 30_000;

class PortTaken extends Error {}

/**
 * A redis-server of the test's own, on a loopback port, without persistence: killing it and
 * starting it again is a Redis that lost its data (what the shared test Redis must never be put
 * through). Needs the `redis-server` binary (.ci/run installs it).
 *
 * The one place a test (or the large-fleet benchmark, which measures its Redis alone) chooses a port. redis-server cannot listen on port 0 and report the port
 * it got, so a candidate is chosen and redis-server binds it itself; when the candidate is taken
 * it exits ("Address already in use") and the next candidate is tried. Nothing picks a port,
 * closes it and hopes it is still free. Ready means this child logged "Ready to accept
 * connections": a PING could be answered by another server on the port.
 */
export async function startOwnRedisServer(options: OwnRedisServerOptions = {}): Promise<OwnRedisServer> {
  let child: ChildProcess | undefined;
  let ports: { readonly port: number; readonly busPort?: number } | undefined;

  for (let attempt = 1; ports === undefined; attempt += 1) {
    const candidate = {
      port: randomInt(CANDIDATE_PORTS.from, CANDIDATE_PORTS.to),
      ...(options.cluster ? { busPort: randomInt(CANDIDATE_PORTS.from, CANDIDATE_PORTS.to) } : {}),
    };
    if (candidate.busPort === candidate.port) continue;
    try {
      child = await spawnReady(serverArgs(candidate, options));
      ports = candidate;
    } catch (error) {
      if (!(error instanceof PortTaken)) throw error;
      if (attempt >= START_ATTEMPTS)
        throw new Error(`redis-server found every one of ${START_ATTEMPTS} candidate ports taken`, { cause: error });
    }
  }
  const chosen = ports;
  const url = `redis://127.0.0.1:${chosen.port}`;

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, "exit");
    running.kill("SIGKILL");
    await exited;
  }

  async function start(): Promise<void> {
    if (child) throw new Error(`the redis-server on port ${chosen.port} is running already`);
    try {
      child = await spawnReady(serverArgs(chosen, options));
    } catch (error) {
      if (error instanceof PortTaken)
        throw new Error(`port ${chosen.port} was taken by another process while this redis-server was down`, { cause: error });
      throw error;
    }
  }

  return { port: chosen.port, url, kill, start, close: kill };
}

function serverArgs(ports: { readonly port: number; readonly busPort?: number }, options: OwnRedisServerOptions): string[] {
  const args = ["--port", String(ports.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...(options.args ?? [])];
  if (options.cluster && ports.busPort !== undefined) {
    // The bus port is chosen too (not port + 10000, which may be taken or out of range).
    const { dir } = options.cluster;
    args.push(
      "--cluster-enabled",
      "yes",
      "--cluster-port",
      String(ports.busPort),
      "--cluster-config-file",
      join(dir, `nodes-${ports.port}.conf`),
      "--dir",
      dir,
    );
  }
  return args;
}

/** A redis-server once it says it accepts connections; PortTaken when it could not bind. */
async function spawnReady(args: readonly string[]): Promise<ChildProcess> {
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "ignore"] });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server ${args.join(" ")} was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`)),
      READY_TIMEOUT_MS,
    );
    const onOutput = (chunk: string): void => {
      output += chunk;
      if (!/Ready to accept connections/.test(output)) return;
      clearTimeout(timer);
      child.stdout?.off("data", onOutput);
      resolve();
    };
    child.stdout?.setEncoding("utf8").on("data", onOutput);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start redis-server (is it installed?): ${error.message}`));
    });
    child.once("exit", () => {
      clearTimeout(timer);
      reject(
        /Address already in use/.test(output)
          ? new PortTaken(output)
          : new Error(`redis-server ${args.join(" ")} exited before it was ready:\n${output}`),
      );
    });
  });
  try {
    await ready;
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    throw error;
  }
  // Its log is not needed past this point; still read, so the pipe never fills up.
  child.stdout?.resume();
  return child;
}
