import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { startOwnRedisServer, type OwnRedisServer } from "./own-redis-server.js";
import { waitFor } from "./worker-wait.js";

const run = promisify(execFile);

export interface OwnRedisCluster {
  /** The masters' URLs (`redis://127.0.0.1:<port>`), usable as `redis.cluster.nodes`. */
  readonly nodes: readonly string[];
  /** The URL of the master serving `key`'s slot now (CLUSTER KEYSLOT, then CLUSTER SLOTS). */
  masterOf(key: string): Promise<string>;
  /** Kills every server and removes their files. */
  close(): Promise<void>;
}

/**
 * A Redis Cluster of the test's own: `masters` redis-servers (cluster mode, no persistence, no
 * replicas) on loopback ports own-redis-server.ts chose, their node files in a temporary folder,
 * slots assigned by `redis-cli --cluster create`. Ready once every node reports
 * `cluster_state:ok`. Needs the `redis-server` and `redis-cli` binaries (.ci/run installs them).
 */
export async function startOwnRedisCluster(masters = 3): Promise<OwnRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-cluster-"));
  const servers: OwnRedisServer[] = [];

  async function close(): Promise<void> {
    await Promise.all(servers.map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  }

  const ports: number[] = [];
  try {
    for (let i = 0; i < masters; i += 1) {
      const server = await startOwnRedisServer({ cluster: { dir } });
      servers.push(server);
      ports.push(server.port);
    }
    await run("redis-cli", ["--cluster", "create", ...ports.map((port) => `127.0.0.1:${port}`), "--cluster-replicas", "0", "--cluster-yes"]);
    for (const port of ports) await waitFor(() => clusterStateOk(port), 20_000, `cluster_state:ok on port ${port}`);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    nodes: ports.map((port) => `redis://127.0.0.1:${port}`),
    async masterOf(key) {
      return withNode(ports[0] ?? 0, async (node) => {
        const slot = Number(await node.call("CLUSTER", "KEYSLOT", key));
        const ranges = (await node.call("CLUSTER", "SLOTS")) as [number, number, [string, number, ...unknown[]], ...unknown[]][];
        const range = ranges.find(([from, to]) => slot >= from && slot <= to);
        if (!range) throw new Error(`slot ${slot} is served by no node`);
        return `redis://${range[2][0]}:${range[2][1]}`;
      });
    },
    close,
  };
}

async function clusterStateOk(port: number): Promise<boolean> {
  return withNode(port, async (node) => /cluster_state:ok/.test(String(await node.call("CLUSTER", "INFO")))).catch(() => false);
}

async function withNode<T>(port: number, work: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  node.on("error", () => undefined);
  try {
    await node.connect();
    return await work(node);
  } finally {
    node.disconnect();
  }
}
