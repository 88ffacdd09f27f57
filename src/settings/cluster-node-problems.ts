/**
 * What is wrong with a Redis Cluster's startup node URLs, by index (a node that is not a
 * redis:// or rediss:// URL is left to the schema's own message). ioredis opens every node it
 * discovers with one set of options, so all nodes must agree on TLS and credentials; a cluster
 * has only database 0. Messages never echo a URL (it may hold a password).
 */
export function clusterNodeProblems(nodes: readonly string[]): { readonly index: number; readonly message: string }[] {
  const problems: { index: number; message: string }[] = [];
  let first: { readonly protocol: string; readonly username: string; readonly password: string } | undefined;
  for (const [index, node] of nodes.entries()) {
    // Not a redis:// URL at all: the schema says so already.
    if (!/^rediss?:\/\//.test(node)) continue;
    let url: URL;
    try {
      url = new URL(node);
    } catch {
      problems.push({ index, message: "is not a valid URL" });
      continue;
    }
    if (url.hostname === "") problems.push({ index, message: "needs a host" });
    if (url.pathname !== "" && url.pathname !== "/" && url.pathname !== "/0")
      problems.push({ index, message: "a Redis Cluster has only database 0: drop the path" });
    if (url.search !== "") problems.push({ index, message: "query options are not read for cluster nodes" });
    if (first === undefined) first = { protocol: url.protocol, username: url.username, password: url.password };
    else {
      if (url.protocol !== first.protocol)
        problems.push({ index, message: "every node must use the same scheme (all redis:// or all rediss://)" });
      if (url.username !== first.username || url.password !== first.password)
        problems.push({ index, message: "every node must carry the same user and password as the first" });
    }
  }
  return problems;
}
