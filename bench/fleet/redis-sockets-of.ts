/**
 * How many TCP connections a process holds to a Redis port, from /proc (Linux): its socket
 * inodes (/proc/<pid>/fd) matched against the kernel's TCP table (/proc/net/tcp, tcp6) rows whose
 * remote port is Redis'. Counted per process, which CLIENT LIST cannot tell apart. Null where
 * /proc is not there.
 */
import { readdir, readFile, readlink } from "node:fs/promises";

async function redisSocketInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const remote = fields[2];
      const inode = fields[9];
      if (remote === undefined || inode === undefined) continue;
      if (Number.parseInt(remote.slice(remote.lastIndexOf(":") + 1), 16) === port) inodes.add(inode);
    }
  }
  return inodes;
}

export async function redisSocketsOf(pid: number, port: number): Promise<number | null> {
  try {
    const inodes = await redisSocketInodes(port);
    let count = 0;
    for (const fd of await readdir(`/proc/${pid}/fd`)) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) count += 1;
    }
    return count;
  } catch {
    return null;
  }
}
