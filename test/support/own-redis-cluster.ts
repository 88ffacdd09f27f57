import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { isServingMaster, parseClusterNodes, type ClusterNodeView } from "./cluster-nodes.js";
import { startOwnRedisServer, type OwnRedisServer } from "../../testkit/own-redis-server.js";
import { waitFor } from "./wait-for.js";

const run = promisify(execFile);

export interface OwnRedisClusterOptions {
  /** Replicas per master (0: masters only, no failover possible). */
  readonly replicas?: number;
  /**
   * cluster-node-timeout: a master silent this long is flagged failing and its replica takes
   * over about a second later. Redis' default (15 s) is too long for a test.
   */
  readonly nodeTimeoutMs?: number;
}

export interface OwnRedisCluster {
  /** The masters' URLs at the start (`redis://127.0.0.1:<port>`), usable as `redis.cluster.nodes`. */
  readonly nodes: readonly string[];
  /** Every node's URL at the start, masters first, then replicas: startup nodes that survive a master's death. */
  readonly allNodes: readonly string[];
  /** The URL of the master serving `key`'s slot now (CLUSTER KEYSLOT, then CLUSTER SLOTS on a live node). */
  masterOf(key: string): Promise<string>;
  /**
   * The URLs of the masters serving slots now, once each has a replica whose link is up: what a
   * test that kills a master needs first. On a loaded machine a master can be failed over
   * before the test kills anything (its pings missed for cluster-node-timeout); the replica it
   * promoted then has no replica of its own until the old master rejoins and syncs, which this
   * waits for. The roles may differ from the start's (`nodes`).
   */
  replicatedMasters(timeoutMs?: number): Promise<string[]>;
  /**
   * SIGKILLs the node at `url` (nothing saved: what it had not replicated is gone). The signal
   * is sent before this returns, so a test can kill at an exact point of a simulator's handler;
   * the promise resolves once the process has exited.
   */
  kill(url: string): Promise<void>;
  /**
   * Waits until another node serves the slots `url` served when it was killed, as a master in
   * the view of every live node, and every live node says `cluster_state:ok`; returns its URL.
   */
  waitForPromotion(url: string, timeoutMs?: number): Promise<string>;
  /** Kills every server and removes their files. */
  close(): Promise<void>;
}

const urlOf = (port: number): string => `redis://127.0.0.1:${port}`;
const portOf = (url: string): number => Number(new URL(url).port);

/**
 * A Redis Cluster of the test's own: `masters` redis-servers in cluster mode (no persistence),
 * each with `replicas` replicas, on loopback ports own-redis-server.ts chose, their node files in a temporary folder,
 * slots and replicas assigned by `redis-cli --cluster create`. Ready once every node reports
 * `cluster_state:ok`, every node knows every other, and every replica's link to its master is
 * up (it holds the master's data, so it can be promoted). Needs the `redis-server` and
 * `redis-cli` binaries (.ci/run installs them).
 */
export async function startOwnRedisCluster(masters = 3, options: OwnRedisClusterOptions = {}): Promise<OwnRedisCluster> {
  const replicas = options.replicas ?? 0;
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-cluster-"));
  const servers = new Map<number, OwnRedisServer>();
  const killed = new Set<number>();
  const ports: number[] = [];

  async function close(): Promise<void> {
    await Promise.all([...servers.values()].map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  }

  const livePorts = (): number[] => ports.filter((port) => servers.has(port) && !killed.has(port));

  try {
    for (let i = 0; i < masters * (1 + replicas); i += 1) {
      const args: string[] = [];
      if (options.nodeTimeoutMs !== undefined) args.push("--cluster-node-timeout", String(options.nodeTimeoutMs));
      // A replica's first sync starts at once (Redis 7 waits 5 s for more replicas to share it).
      if (replicas > 0) args.push("--repl-diskless-sync-delay", "0");
      const server = await startOwnRedisServer({ cluster: { dir }, args });
      servers.set(server.port, server);
      ports.push(server.port);
    }
    await run("redis-cli", [
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ]);
    for (const port of ports) await waitFor(() => clusterStateOk(port), { timeoutMs: 20_000, what: `cluster_state:ok on port ${port}` });
    for (const port of ports)
      await waitFor(() => knowsEveryNode(port, ports.length), {
        timeoutMs: 20_000,
        what: `node ${port} to know all ${ports.length} nodes`,
      });
    for (const port of ports)
      await waitFor(() => replicaLinkUpOrMaster(port), {
        timeoutMs: 20_000,
        what: `node ${port}: a master, or a replica whose link is up`,
      });
  } catch (error) {
    await close();
    throw error;
  }

  // Masters first: the roles redis-cli gave, read back (it chooses them, not the order of the ports).
  const view = await clusterViewOf(ports[0] ?? 0);
  const masterPorts = view.filter(isServingMaster).map((node) => node.port);
  const replicaPorts = view.filter((node) => node.masterId !== null).map((node) => node.port);
  /** The slot ranges a killed master served when it was killed, by its port: what its replica takes over. */
  const slotsAtKill = new Map<number, readonly string[]>();

  return {
    nodes: masterPorts.map(urlOf),
    allNodes: [...masterPorts, ...replicaPorts].map(urlOf),
    async masterOf(key) {
      return withNode(livePorts()[0] ?? 0, async (node) => {
        const slot = Number(await node.call("CLUSTER", "KEYSLOT", key));
        const ranges = (await node.call("CLUSTER", "SLOTS")) as [number, number, [string, number, ...unknown[]], ...unknown[]][];
        const range = ranges.find(([from, to]) => slot >= from && slot <= to);
        if (!range) throw new Error(`slot ${slot} is served by no node`);
        return `redis://${range[2][0]}:${range[2][1]}`;
      });
    },
    async replicatedMasters(timeoutMs = 30_000) {
      const ports = await waitFor(
        async () => {
          const view = await clusterViewOf(livePorts()[0] ?? 0);
          const masters = view.filter(isServingMaster).map((node) => node.port);
          for (const port of masters) if (!(await hasOnlineReplica(port))) return undefined;
          return masters;
        },
        { timeoutMs, what: "every master serving slots to have a replica whose link is up" },
      );
      return ports.map(urlOf);
    },
    async kill(url) {
      const port = portOf(url);
      const server = servers.get(port);
      if (!server) throw new Error(`${url} is no node of this cluster`);
      // Its slots as the cluster sees them now, in the first live node's view that has them: on a
      // loaded machine a failover may have happened since the start (a node missing its pings for
      // cluster-node-timeout), so the roles of the start may be stale, and one node's view may
      // not answer in time.
      for (const live of livePorts()) {
        const view = await clusterViewOf(live).catch(() => []);
        const self = view.find((node) => node.port === port && isServingMaster(node));
        if (self !== undefined) {
          slotsAtKill.set(port, self.slots);
          break;
        }
      }
      killed.add(port);
      await server.kill();
    },
    async waitForPromotion(url, timeoutMs = 30_000) {
      const killedPort = portOf(url);
      const slots = slotsAtKill.get(killedPort);
      if (slots === undefined || slots.length === 0) throw new Error(`${url} served no slots as a master when it was killed`);
      const promoted = await waitFor(
        async () => {
          let found: number | undefined;
          for (const port of livePorts()) {
            if (!(await clusterStateOk(port))) return undefined;
            const nodes = await clusterViewOf(port);
            const replica = nodes.find((node) => node.port !== killedPort && isServingMaster(node) && node.slots.includes(slots[0] ?? ""));
            if (!replica || (found !== undefined && found !== replica.port)) return undefined;
            found = replica.port;
          }
          return found;
        },
        { timeoutMs: timeoutMs, what: `a replica of ${url} to be promoted in every live node's view, cluster_state:ok everywhere` },
      );
      return urlOf(promoted);
    },
    close,
  };
}

/** The cluster as the node on `port` sees it (CLUSTER NODES). */
async function clusterViewOf(port: number): Promise<ClusterNodeView[]> {
  return withNode(port, async (node) => parseClusterNodes(String(await node.call("CLUSTER", "NODES"))));
}

async function clusterStateOk(port: number): Promise<boolean> {
  return withNode(port, async (node) => /cluster_state:ok/.test(String(await node.call("CLUSTER", "INFO")))).catch(() => false);
}

/** Every node in its view, none still in handshake: a failing master's replicas can be voted for. */
async function knowsEveryNode(port: number, count: number): Promise<boolean> {
  const nodes = await clusterViewOf(port);
  return nodes.length === count && nodes.every((node) => !node.flags.includes("handshake") && !node.flags.includes("noaddr"));
}

/** A master whose INFO lists a replica in state `online` (synced, its link up). */
async function hasOnlineReplica(port: number): Promise<boolean> {
  const info = await withNode(port, async (node) => String(await node.call("INFO", "replication"))).catch(() => "");
  return /^slave\d+:.*state=online/m.test(info);
}

async function replicaLinkUpOrMaster(port: number): Promise<boolean> {
  const info = await withNode(port, async (node) => String(await node.call("INFO", "replication")));
  return /role:master/.test(info) || /master_link_status:up/.test(info);
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
