/** One line of CLUSTER NODES, as one node sees the cluster. */
export interface ClusterNodeView {
  readonly id: string;
  readonly port: number;
  /** `myself`, `master`, `slave`, `fail`, `fail?`, `handshake`, `noaddr`... */
  readonly flags: readonly string[];
  /** The id of the master it replicates, or null for a master. */
  readonly masterId: string | null;
  /** Slot ranges it serves (masters only), e.g. `0-5460`. */
  readonly slots: readonly string[];
}

/**
 * CLUSTER NODES' text, one entry per node: `<id> <ip:port@cport[,host]> <flags> <master|-> <ping>
 * <pong> <epoch> <link> <slot>...`. Lines that do not have that shape fail loudly: a test that
 * reads the wrong view of the cluster would wait on the wrong condition.
 */
export function parseClusterNodes(text: string): ClusterNodeView[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.split(" ");
      const port = Number(/:(\d+)@/.exec(address ?? "")?.[1]);
      if (id === undefined || flags === undefined || master === undefined || !Number.isInteger(port))
        throw new Error(`not a CLUSTER NODES line: ${line}`);
      return { id, port, flags: flags.split(","), masterId: master === "-" ? null : master, slots };
    });
}

/** A live master (not flagged failing) serving at least one slot. */
export function isServingMaster(node: ClusterNodeView): boolean {
  return node.flags.includes("master") && !node.flags.includes("fail") && !node.flags.includes("fail?") && node.slots.length > 0;
}
